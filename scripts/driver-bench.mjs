#!/usr/bin/env node
// The figures of docs/decisions/014-node-versions-and-sqlite-driver.md: the built api on the
// Node running this script, with the SQLite driver it picks (or SHOWROOM_SQLITE_DRIVER):
// start time (process spawn to /health answering, fresh seeded database, median of
// DRIVER_BENCH_STARTS, default 3), then GET /products/{id} and the department listing under
// autocannon (50 connections, DRIVER_BENCH_SECONDS each, default 8, after a 2 s warm-up).
// Prints one line. Run as `path/to/node scripts/driver-bench.mjs`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { departmentRequests, productRequests } from '../bench/lib/api-requests.mjs';
import {
  apiRequire,
  ensureApiBuilt,
  prepareDatabase,
  sqliteDriverPackage,
  startApi,
  tempDir,
} from '../bench/lib/api.mjs';
import { load, warm } from '../bench/lib/load.mjs';
import { stopAll } from '../bench/lib/processes.mjs';
import { summarize } from '../bench/lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTS = Number(process.env.DRIVER_BENCH_STARTS ?? 3);
const SECONDS = Number(process.env.DRIVER_BENCH_SECONDS ?? 8);
const PORT = Number(process.env.DRIVER_BENCH_PORT ?? 3221);

ensureApiBuilt(root);
const driver = sqliteDriverPackage();
const version = apiRequire(root)(`${driver}/package.json`).version;

const starts = [];
for (let i = 0; i < STARTS; i++) {
  const dataDir = tempDir('driver');
  await prepareDatabase(root, dataDir);
  const started = performance.now();
  const api = await startApi(root, { port: PORT, dataDir });
  starts.push(performance.now() - started);
  await api.stop();
}

const dataDir = tempDir('driver');
const { ids, departments } = await prepareDatabase(root, dataDir, { stock: 1_000_000 });
const api = await startApi(root, { port: PORT, dataDir });
const figures = [];
for (const [name, requests] of [
  ['GET /products/{id}', productRequests(ids)],
  ['department listing', departmentRequests(departments)],
]) {
  await warm(api.url, { requests });
  const result = await load(api.url, { requests, durationSeconds: SECONDS });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${JSON.stringify(result)}`);
  figures.push(`${name} ${result.rps.toFixed(0)}/s (p99 ${result.p99} ms)`);
}
await api.stop();
await stopAll();
console.log(
  `node ${process.versions.node}, ${driver === 'better-sqlite3' ? '' : `${driver} = `}` +
    `better-sqlite3 ${version}: api start ${summarize(starts).median.toFixed(0)} ms ` +
    `(${starts.map((ms) => ms.toFixed(0)).join(', ')}), ${figures.join(', ')}`,
);
