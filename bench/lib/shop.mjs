// A production shop for benchmarks: `scripts/start.mjs` (which builds when sources changed),
// on its own ports, with a fresh seeded SQLite database in a temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNode } from './processes.mjs';

export const BENCH_WEB_PORT = Number(process.env.BENCH_WEB_PORT ?? 3200);
export const BENCH_API_PORT = Number(process.env.BENCH_API_PORT ?? 3201);

export async function startShop(root, { webPort = BENCH_WEB_PORT, apiPort = BENCH_API_PORT } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-bench-data-'));
  const process_ = await startNode(['scripts/start.mjs'], {
    cwd: root,
    name: 'the shop (scripts/start.mjs)',
    env: {
      PORT: String(webPort),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    readyUrl: `http://127.0.0.1:${webPort}/`,
    // The first start builds (about a minute on two cores).
    timeoutMs: 600_000,
  });
  return {
    webUrl: `http://localhost:${webPort}`,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    dataDir,
    async stop() {
      await process_.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
