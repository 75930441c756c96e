import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createRequestHandler } from '@react-router/express';
import compression from 'compression';
import express from 'express';
import type { ServerBuild } from 'react-router';

/** Exports of app/entry.server.tsx that the server calls besides rendering. */
interface EntryExtras {
  checkDeploymentProfiles?: () => void;
}

/** apps/web: this file runs from server/ (dev, via tsx) or build/server-main/ (compiled). */
const WEB_ROOT = findWebRoot(path.dirname(fileURLToPath(import.meta.url)));

function findWebRoot(start: string): string {
  for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'react-router.config.ts'))) return dir;
  }
  throw new Error(`apps/web not found above ${start}`);
}
const dev = process.argv.includes('--dev');

function parsePort(raw: string | undefined, fallback: number): number {
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

async function createApp(): Promise<express.Express> {
  const app = express();
  app.disable('x-powered-by');
  app.use(compression());
  // The RUM SDK's profiler (profiling sample rate 100, spec §9) needs JS self-profiling allowed.
  app.use((_request, response, next) => {
    response.setHeader('Document-Policy', 'js-profiling');
    next();
  });

  if (dev) {
    const vite = await import('vite');
    const viteServer = await vite.createServer({
      root: WEB_ROOT,
      server: { middlewareMode: true },
    });
    app.use(viteServer.middlewares);
    const loadBuild = () =>
      viteServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
    const build = await loadBuild();
    runStartupChecks(build);
    app.use(createRequestHandler({ build: loadBuild, mode: 'development' }));
    return app;
  }

  const clientDir = path.join(WEB_ROOT, 'build', 'client');
  const build = (await import(path.join(WEB_ROOT, 'build', 'server', 'index.js'))) as ServerBuild;
  runStartupChecks(build);
  // Hashed build assets never change; product images change only with a new build.
  app.use(
    '/assets',
    express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y' }),
  );
  app.use('/img', express.static(path.join(clientDir, 'img'), { maxAge: '7d' }));
  app.use(express.static(clientDir, { maxAge: '1h', index: false }));
  app.use(createRequestHandler({ build, mode: 'production' }));
  return app;
}

/** Refuses to start with an invalid deployment profile, naming the profile and the field. */
function runStartupChecks(build: ServerBuild): void {
  const extras = build.entry.module as unknown as EntryExtras;
  extras.checkDeploymentProfiles?.();
}

async function main(): Promise<void> {
  const port = parsePort(process.env.PORT, 3000);
  const host = process.env.HOST ?? '0.0.0.0';
  const app = await createApp();
  const server: Server = app.listen(port, host, () => {
    console.log(`Showroom web listening on http://localhost:${port}${dev ? ' (dev)' : ''}`);
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`Showroom web: ${signal}, shutting down`);
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
