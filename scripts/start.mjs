#!/usr/bin/env node
// `npm start`: build when sources changed, then run the api (:3001) and the web (:3000) together.
// `npm run dev`: the same two processes with hot reload. SIGINT/SIGTERM stop both cleanly.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shopBuildIsStale } from './build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const apiPort = process.env.API_PORT ?? '3001';
const webPort = process.env.PORT ?? '3000';

function run(command, args, env = {}, cwd = root) {
  return spawn(command, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
}

// Dev processes run under tsx directly (not through npm), so our signals reach them.
const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');

async function waitForHealth(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`api exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`api did not become healthy at ${url} within ${timeoutMs} ms`);
}

async function main() {
  if (dev) {
    spawnSync('npm', ['run', 'images', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  } else if (shopBuildIsStale(root)) {
    console.log('Showroom: building…');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  const env = { API_PORT: apiPort, PORT: webPort, NODE_ENV: dev ? 'development' : 'production' };
  const api = dev
    ? run(process.execPath, [tsx, 'watch', 'src/server.ts'], env, path.join(root, 'apps/api'))
    : run(process.execPath, ['apps/api/dist/server.js'], env);
  const children = [api];
  let stopping = false;
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  await waitForHealth(`http://127.0.0.1:${apiPort}/health`, api);
  if (stopping) return;
  const web = dev
    ? run(process.execPath, [tsx, 'server/main.ts', '--dev'], env, path.join(root, 'apps/web'))
    : run(process.execPath, ['apps/web/build/server-main/main.js'], env);
  children.push(web);

  let exitCode = 0;
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          child.on('exit', (code) => {
            if (code && !stopping) exitCode = code;
            stop('SIGTERM');
            resolve();
          });
        }),
    ),
  );
  process.exit(exitCode);
}

main().catch((err) => {
  console.error(`Showroom failed to start: ${err.message}`);
  process.exit(1);
});
