// The JavaScript a first visit loads, as served (gzip body bytes), split by the rule in
// ../bundle-budget.json: the monitoring SDK, flag-provider and build-watch chunks, which load
// after the page is interactive, apart from everything else. Used by tests/e2e/bundle-budget.spec.ts (the
// budget check in npm test) and by npm run bench (the pages part).
import fs from 'node:fs';
import http from 'node:http';

const BUDGET_FILE = new URL('../bundle-budget.json', import.meta.url);

export function readBundleBudget() {
  return JSON.parse(fs.readFileSync(BUDGET_FILE, 'utf8'));
}

/** The bytes of every deferred group together (the `deferred` budget and ceiling). */
export function deferredBytes(totals, budget = readBundleBudget()) {
  return Object.keys(budget.deferred).reduce((sum, group) => sum + (totals[group] ?? 0), 0);
}

/**
 * 'page', or the deferred group ('monitoring', 'flags', 'builds') whose prefix a script's file
 * name has (`fileName` may carry a directory: assets/datadog-rum-….js). The build uses it too
 * (vite.config.ts, build-plugins/compile-hints.ts).
 */
export function groupOfFile(fileName, budget = readBundleBudget()) {
  const file = fileName.split('/').pop() ?? '';
  for (const [group, prefixes] of Object.entries(budget.deferred)) {
    if (prefixes.some((prefix) => file.startsWith(prefix))) return group;
  }
  return 'page';
}

/** The group of a script by its URL (see groupOfFile). */
export function classifyScript(url, budget = readBundleBudget()) {
  return groupOfFile(new URL(url).pathname, budget);
}

/** Body bytes of `url` as served to a client that accepts only gzip. */
export function gzipBytes(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => {
          if (response.statusCode !== 200)
            reject(new Error(`${url} answered ${response.statusCode}`));
          else if (response.headers['content-encoding'] !== 'gzip' && bytes >= 1024) {
            reject(new Error(`${url} was not served gzip-compressed`));
          } else resolve(bytes);
        });
      })
      .on('error', reject);
  });
}

/**
 * Opens `pageUrl` in a fresh browser context, waits until start-up, monitoring, the flag
 * provider and the build watch have run and the network is idle, and answers every script it
 * loaded with its gzip size and group, plus the totals per group and of all deferred groups.
 */
export async function measureFirstVisit(browser, pageUrl, budget = readBundleBudget()) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const urls = new Set();
    page.on('request', (request) => {
      if (request.resourceType() === 'script' && request.url().startsWith('http')) {
        urls.add(request.url());
      }
    });
    await page.goto(pageUrl);
    await page.waitForFunction(
      /* global document, window -- runs in the page */
      () =>
        document.documentElement.dataset.startup === 'done' &&
        document.documentElement.dataset.flags !== undefined &&
        document.documentElement.dataset.buildWatch === 'on' &&
        window.DD_RUM !== undefined,
      undefined,
      { timeout: 30_000 },
    );
    await page.waitForLoadState('networkidle');
    const scripts = await Promise.all(
      [...urls].map(async (url) => ({
        url,
        group: classifyScript(url, budget),
        gzipBytes: await gzipBytes(url),
      })),
    );
    const totals = Object.fromEntries(['page', ...Object.keys(budget.deferred)].map((g) => [g, 0]));
    for (const script of scripts) totals[script.group] += script.gzipBytes;
    return { scripts, totals, deferred: deferredBytes(totals, budget) };
  } finally {
    await context.close();
  }
}
