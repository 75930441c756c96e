import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createRequestHandler } from '@react-router/express';
import compression from 'compression';
import express from 'express';
import type { ServerBuild } from 'react-router';
import { API_MOUNT_PATH, createApiProxy } from './api-proxy.js';
import { apiTarget } from './api-target.js';
import { profileHandler, PROFILE_ROUTE, type RuntimeProfiles } from './profiles.js';

/** Exports of app/entry.server.tsx that the server calls besides rendering. */
interface EntryExtras {
  /** Validates the deployment profiles (throws naming profile and field) and answers them. */
  checkDeploymentProfiles?: () => RuntimeProfiles | void;
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
  // The api under this origin (before compression, which would hold back streamed answers).
  const target = apiTarget();
  app.use(API_MOUNT_PATH, createApiProxy(target));
  console.log(`Showroom web: ${API_MOUNT_PATH}/* is proxied to ${target}`);
  app.use(compression());
  // The RUM SDK's profiler (profiling sample rate 100, R-9.5) needs JS self-profiling allowed.
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
    runStartupChecks(await loadBuild());
    // Profiles are read from the current build, so an edit shows without a restart.
    app.get(
      PROFILE_ROUTE,
      profileHandler(async () => runStartupChecks(await loadBuild())),
    );
    app.use(createRequestHandler({ build: loadBuild, mode: 'development', getLoadContext }));
    return app;
  }

  const clientDir = path.join(WEB_ROOT, 'build', 'client');
  const build = (await import(path.join(WEB_ROOT, 'build', 'server', 'index.js'))) as ServerBuild;
  const profiles = runStartupChecks(build);
  app.get(
    PROFILE_ROUTE,
    profileHandler(() => profiles),
  );
  // Hashed build assets never change; product images change only with a new build.
  app.use(
    '/assets',
    express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y' }),
  );
  app.use('/img', express.static(path.join(clientDir, 'img'), { maxAge: '7d' }));
  app.use(express.static(clientDir, { maxAge: '1h', index: false }));
  app.use(createRequestHandler({ build, mode: 'production', getLoadContext }));
  return app;
}

/**
 * A new object per request, shared by every loader of that page load: loaders remember what
 * they asked the api for on it (app/lib/departments.server.ts), so a page asks once.
 */
function getLoadContext(): Record<string, never> {
  return {};
}

/**
 * Refuses to start with an invalid deployment profile, naming the profile and the field, and
 * answers the validated profiles (served one by one at PROFILE_ROUTE).
 */
function runStartupChecks(build: ServerBuild): RuntimeProfiles {
  const extras = build.entry.module as unknown as EntryExtras;
  return extras.checkDeploymentProfiles?.() ?? {};
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
