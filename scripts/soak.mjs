#!/usr/bin/env node
// `npm run soak`: the built api (production, a fresh SQLite database) under a minute of steady
// load across the hot routes, with garbage collection forced every few milliseconds, so a
// native addon that frees its objects wrongly aborts here rather than in a shopper's session
// (docs/decisions/014-node-versions-and-sqlite-driver.md). Checks: the api neither aborts nor
// crashes (exit code and signal after a clean SIGTERM), no answer is a 5xx or a failed request,
// and its resident memory grows less than the bound from the end of the warm-up to the end.
// Prints one line with the result and its figures; exits 1 when a check fails.
//
// The api runs on the Node running this script (process.execPath): `path/to/node scripts/soak.mjs`
// soaks that Node. Settings (environment):
//   SOAK_SECONDS          load duration, warm-up included (default 60)
//   SOAK_WARMUP_SECONDS   warm-up before the first memory reading (default a sixth, ≥ 5)
//   SOAK_CONNECTIONS      concurrent shoppers (default 8)
//   SOAK_GC_INTERVAL_MS   forced garbage collection interval in the api (default 5)
//   SOAK_RSS_GROWTH_MIB   allowed resident memory growth after the warm-up (default 64)
//   SOAK_PORT             the api's port (default 3211)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precomputeRequests, intakeRequests } from '../bench/lib/api-requests.mjs';
import {
  apiRequire,
  ensureApiBuilt,
  prepareDatabase,
  sqliteDriverPackage,
  tempDir,
} from '../bench/lib/api.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? Math.max(5, SECONDS / 6));
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 8);
const GC_INTERVAL_MS = Number(process.env.SOAK_GC_INTERVAL_MS ?? 5);
const RSS_GROWTH_MIB = Number(process.env.SOAK_RSS_GROWTH_MIB ?? 64);
const PORT = Number(process.env.SOAK_PORT ?? 3211);
const URL_BASE = `http://127.0.0.1:${PORT}`;
const STOCK = 10_000_000;
const MiB = 1024 * 1024;

if (!(SECONDS > WARMUP_SECONDS && WARMUP_SECONDS > 0)) {
  throw new Error('SOAK_SECONDS must be longer than SOAK_WARMUP_SECONDS (both > 0)');
}

/** Resident memory of a process (Linux /proc), in bytes. */
function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kib) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib[1]) * 1024;
}

function startApi(dataDir, { forceGc = true } = {}) {
  const gcHook = path.join(root, 'scripts', 'soak-gc.mjs');
  const gcArgs = forceGc ? ['--expose-gc', '--import', gcHook] : [];
  const child = spawn(process.execPath, [...gcArgs, 'apps/api/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      API_HOST: '127.0.0.1',
      API_PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
      DATABASE_URL: '',
      SOAK_GC_INTERVAL_MS: String(GC_INTERVAL_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-8_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

async function waitForHealth(api, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (api.child.exitCode !== null || api.child.signalCode !== null) {
      throw new Error(`the api exited while starting:\n${api.output()}`);
    }
    try {
      if ((await fetch(`${URL_BASE}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the api did not answer ${URL_BASE}/health within ${timeoutMs} ms`);
}

const SHIPPING = {
  name: 'Soak Shopper',
  email: 'soak@example.com',
  address1: '1 Load Street',
  city: 'Springfield',
  postalCode: 'AB1 2CD',
  country: 'US',
};
const CARD = {
  number: '4242 4242 4242 4242',
  cvc: '123',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
};

/** Answers by route and status class; a failed request (no answer) counts as `failed`. */
const tally = { total: 0, s2xx: 0, s4xx: 0, s5xx: 0, failed: 0, byRoute: {} };
const problems = [];

async function call(route, url, init = {}) {
  tally.total++;
  const counts = (tally.byRoute[route] ??= { n: 0, bad: 0 });
  counts.n++;
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    tally.failed++;
    counts.bad++;
    if (problems.length < 5) problems.push(`${route}: ${error.cause?.code ?? error.message}`);
    return undefined;
  }
  const body = await response.text();
  if (response.status >= 500) {
    tally.s5xx++;
    counts.bad++;
    if (problems.length < 5) problems.push(`${route}: ${response.status} ${body.slice(0, 200)}`);
  } else if (response.status >= 400) tally.s4xx++;
  else tally.s2xx++;
  return { response, body };
}

/** One shopper after another on one connection slot until the deadline: every hot route. */
async function shopper(slot, { ids, departments }, deadline) {
  const precompute = precomputeRequests(200)[0];
  const intake = intakeRequests(`soak${slot}-${Date.now()}`)[0];
  for (let visit = 0; Date.now() < deadline; visit++) {
    const id = ids[(slot * 7919 + visit * 31) % ids.length];
    const department = departments[(slot + visit) % departments.length];
    await call('department listing', `${URL_BASE}/departments/${department}/products`);
    await call('product', `${URL_BASE}/products/${id}`);
    const flags = precompute.setupRequest({ headers: precompute.headers });
    await call('flags precompute', `${URL_BASE}${precompute.path}`, {
      method: 'POST',
      headers: precompute.headers,
      body: flags.body,
    });
    const added = await call('cart add', `${URL_BASE}/cart/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        productId: id,
        edition: visit % 5 ? 'standard' : 'special',
        quantity: 1,
      }),
    });
    const cookie = added?.response.headers
      .getSetCookie()
      .find((value) => value.startsWith('showroom_session='))
      ?.split(';')[0];
    if (cookie && visit % 2 === 0) {
      await call('checkout', `${URL_BASE}/checkout/orders`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `soak-${process.pid}-${slot}-${visit}`,
          cookie,
        },
        body: JSON.stringify({ shipping: SHIPPING, payment: { type: 'card', card: CARD } }),
      });
    }
    const batch = intake.setupRequest({ headers: intake.headers });
    await call('intake', `${URL_BASE}${intake.path}`, {
      method: 'POST',
      headers: intake.headers,
      body: batch.body,
    });
  }
}

async function main() {
  ensureApiBuilt(root);
  const driver = sqliteDriverPackage();
  const driverVersion = apiRequire(root)(`${driver}/package.json`).version;
  const dataDir = tempDir('soak');
  // Seeded in a child process on the same Node: a driver that aborts there fails the soak with
  // a result line, not by taking this process down.
  const prepared = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--prepare', dataDir],
    {
      encoding: 'utf8',
    },
  );
  if (prepared.status !== 0) {
    console.log(
      `soak FAIL: node ${process.versions.node}, ${driver} ${driverVersion}: seeding the database ` +
        `exited with ${prepared.signal ?? prepared.status}\n${prepared.stderr.slice(0, 2_000)}`,
    );
    process.exitCode = 1;
    return;
  }
  const catalog = JSON.parse(prepared.stdout);

  // First a start on an empty data folder (the api migrates and seeds it itself, as on a first
  // `npm start`), a second idle, and a clean stop — without forced collections, which change
  // when finalizers run: better-sqlite3 12 aborted on Node 24 in starts like this one, from
  // V8's own idle-time collection (docs/decisions/014-node-versions-and-sqlite-driver.md).
  const emptyDir = tempDir('soak-empty');
  const first = startApi(emptyDir, { forceGc: false });
  await waitForHealth(first);
  for (const until = Date.now() + 1_000; Date.now() < until;) {
    await fetch(`${URL_BASE}/health`).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGTERM');
  const firstExit = await first.exited;
  fs.rmSync(emptyDir, { recursive: true, force: true });
  if (firstExit.code !== 0 || firstExit.signal !== null) {
    console.log(
      `soak FAIL: node ${process.versions.node}, ${driver} ${driverVersion}: the api's first start ` +
        `on an empty data folder ended with ${firstExit.signal ?? firstExit.code}\n${first.output()}`,
    );
    process.exitCode = 1;
    return;
  }

  const started = Date.now();
  const api = startApi(dataDir);
  await waitForHealth(api);
  const startMs = Date.now() - started;

  const loadStart = Date.now();
  const deadline = loadStart + SECONDS * 1000;
  let rssWarm;
  let rssPeak = 0;
  const sampler = setInterval(() => {
    if (api.child.exitCode !== null || api.child.signalCode !== null) return;
    const rss = rssOf(api.child.pid);
    rssPeak = Math.max(rssPeak, rss);
    if (rssWarm === undefined && Date.now() - loadStart >= WARMUP_SECONDS * 1000) rssWarm = rss;
  }, 250);
  // A shopper whose api died stops at once: every later call fails fast.
  await Promise.all(
    Array.from({ length: CONNECTIONS }, (_, slot) => shopper(slot, catalog, deadline)),
  );
  clearInterval(sampler);
  const aliveAtEnd = api.child.exitCode === null && api.child.signalCode === null;
  const rssEnd = aliveAtEnd ? rssOf(api.child.pid) : undefined;
  if (aliveAtEnd) api.child.kill('SIGTERM');
  const { code, signal } = await api.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });

  const failures = [];
  if (!aliveAtEnd) failures.push(`the api died during the load (code ${code}, signal ${signal})`);
  else if (code !== 0 || signal !== null) {
    failures.push(`the api did not stop cleanly (code ${code}, signal ${signal})`);
  }
  if (tally.s5xx > 0) failures.push(`${tally.s5xx} answers were 5xx`);
  if (tally.failed > 0) failures.push(`${tally.failed} requests got no answer`);
  const growth = rssWarm !== undefined && rssEnd !== undefined ? rssEnd - rssWarm : undefined;
  if (growth === undefined) failures.push('no memory reading after the warm-up');
  else if (growth > RSS_GROWTH_MIB * MiB) {
    failures.push(`resident memory grew ${(growth / MiB).toFixed(1)} MiB (> ${RSS_GROWTH_MIB})`);
  }
  const routes = Object.keys(tally.byRoute);
  for (const route of [
    'department listing',
    'product',
    'flags precompute',
    'cart add',
    'checkout',
    'intake',
  ]) {
    if (!routes.includes(route)) failures.push(`no ${route} request was made`);
  }

  const mib = (bytes) => (bytes === undefined ? '?' : (bytes / MiB).toFixed(1));
  const seconds = ((Date.now() - loadStart) / 1000).toFixed(0);
  console.log(
    `soak ${failures.length ? 'FAIL' : 'pass'}: node ${process.versions.node}, ` +
      `${driver === 'better-sqlite3' ? '' : `${driver} = `}better-sqlite3 ${driverVersion}, ` +
      `api up in ${startMs} ms, ${seconds} s × ${CONNECTIONS} shoppers, gc every ${GC_INTERVAL_MS} ms: ` +
      `${tally.total} requests (${(tally.total / Number(seconds)).toFixed(0)}/s; ${tally.s2xx} 2xx, ` +
      `${tally.s4xx} 4xx, ${tally.s5xx} 5xx, ${tally.failed} no answer), ` +
      `rss ${mib(rssWarm)} → ${mib(rssEnd)} MiB after warm-up (${growth === undefined ? '?' : `${growth >= 0 ? '+' : ''}${mib(growth)}`} MiB, bound ${RSS_GROWTH_MIB}; peak ${mib(rssPeak)}), ` +
      `exit ${signal ?? code}` +
      (failures.length ? ` — ${failures.join('; ')}` : ''),
  );
  if (failures.length) {
    if (problems.length) console.log(`first problems:\n  ${problems.join('\n  ')}`);
    if (!aliveAtEnd || code !== 0) console.log(`api output (last lines):\n${api.output()}`);
    process.exitCode = 1;
  }
}

if (process.argv[2] === '--prepare') {
  const catalog = await prepareDatabase(root, process.argv[3], { stock: STOCK });
  process.stdout.write(JSON.stringify(catalog));
} else {
  await main().catch((error) => {
    console.error(`soak FAIL: ${error.stack ?? error}`);
    process.exitCode = 1;
  });
}
