// The JavaScript a first visit loads, split by the rule in apps/web/bundle-budget.json: the
// monitoring SDK and flag-provider chunks (loaded after the page is interactive) apart from
// everything else.
import fs from 'node:fs';
import path from 'node:path';

export function readBundleBudget(root) {
  return JSON.parse(fs.readFileSync(path.join(root, 'apps/web/bundle-budget.json'), 'utf8'));
}

/** 'monitoring', 'flags' or 'page' for a script URL. */
export function classifyScript(url, budget) {
  const file = new URL(url).pathname.split('/').pop() ?? '';
  for (const [group, prefixes] of Object.entries(budget.deferred)) {
    if (prefixes.some((prefix) => file.startsWith(prefix))) return group;
  }
  return 'page';
}

/** Sums transferred bytes of script requests by group. scripts: [{ url, transferSize }]. */
export function sumScripts(scripts, budget) {
  const totals = { page: 0, monitoring: 0, flags: 0 };
  for (const script of scripts) {
    if (!script.url.startsWith('http')) continue;
    const group = classifyScript(script.url, budget);
    totals[group] = (totals[group] ?? 0) + script.transferSize;
  }
  return totals;
}

/** Body bytes of `url` as served gzip-compressed (what travels, without headers). */
export async function gzipBytes(url) {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () =>
          response.headers['content-encoding'] === 'gzip' || bytes < 1024
            ? resolve(bytes)
            : reject(new Error(`${url} was not served gzip-compressed`)),
        );
      })
      .on('error', reject);
  });
}
