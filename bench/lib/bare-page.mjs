// The bare React Router page (bench/fixtures/bare-rr): built once, served like the shop.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startNode } from './processes.mjs';

export async function startBarePage(root, port = Number(process.env.BENCH_BARE_PORT ?? 3210)) {
  const dir = path.join(root, 'bench/fixtures/bare-rr');
  if (!fs.existsSync(path.join(dir, 'build/server/index.js'))) {
    const cli = path.join(root, 'node_modules/@react-router/dev/bin.js');
    const built = spawnSync(process.execPath, [cli, 'build'], { cwd: dir, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`building the bare page failed:\n${built.stderr}`);
  }
  const server = await startNode(['server.mjs'], {
    cwd: dir,
    name: 'the bare React Router page',
    env: { PORT: String(port), NODE_ENV: 'production' },
    readyUrl: `http://127.0.0.1:${port}/`,
  });
  return { url: `http://127.0.0.1:${port}/`, stop: server.stop };
}
