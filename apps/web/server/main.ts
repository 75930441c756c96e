import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createRequestHandler } from '@react-router/express';
import compression from 'compression';
import express from 'express';
import { createRequestHandler as createFetchHandler, type ServerBuild } from 'react-router';
import { VIDEO_BASE_PATH } from '@showroom/contracts/video';
import { API_MOUNT_PATH, createApiProxy } from './api-proxy.js';
import { apiTarget } from './api-target.js';
import {
  buildPollInterval,
  buildTimeLabel,
  readBuildMeta,
  type BuildMeta,
  type DocumentBuild,
} from './build-info.js';
import { buildsRouter, prerenderedPaths, routeRuleRedirects } from './builds.js';
import type { ShowroomLoadContext } from './load-context.js';
import { createFaultWatch } from './fault-watch.js';
import { createPageCache } from './page-cache.js';
import { profileHandler, PROFILE_ROUTE, type RuntimeProfiles } from './profiles.js';
import { loadRouteRules, routeRulesFile, type RouteRules } from './route-rules.js';
import { precompressed } from './precompressed.js';
import { slowImages } from './slow-images.js';
import { SLOW_IMAGE_PATH } from '@showroom/contracts/faults';
import { videoFaults } from './video-faults.js';
import {
  ALLOWED_ORIGINS_ENV,
  OPERATOR_TOKEN_ENV,
  openOperatorRoutesWarning,
  parseAllowedOrigins,
} from '@showroom/contracts/security';
import {
  connectSources,
  crossSiteWrites,
  cspNonceOf,
  genericErrors,
  newNonce,
  operatorHeaders,
  operatorSignIn,
  pageContentSecurityPolicy,
  securityHeaders,
} from './security.js';

/**
 * The nonce a cached page (server/page-cache.ts) is rendered with; each response that serves it
 * gets its own nonce in its place. Random per process, so no page text can contain it by chance.
 */
const CACHED_PAGE_NONCE = newNonce();

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
  // Read before anything listens: a bad interval stops start-up; bad route rules never do.
  const pollIntervalMs = buildPollInterval();
  const rulesFile = routeRulesFile(WEB_ROOT);
  const routeRules = loadRouteRules(rulesFile, (message) => console.warn(message));
  console.log(
    `Showroom web: ${Object.keys(routeRules).length} route rule(s) from ${rulesFile}; new-build check every ${pollIntervalMs} ms`,
  );
  const app = express();
  app.disable('x-powered-by');
  // The api under this origin (before compression, which would hold back streamed answers).
  // The api sets its own security headers and refuses cross-site writes itself.
  const target = apiTarget();
  // An order through this server took stock: the page cache (below, production only) forgets
  // the product pages, which show it.
  const pages: { forgetProductPages?: () => void } = {};
  app.use(
    API_MOUNT_PATH,
    createApiProxy(target, { onOrderPlaced: () => pages.forgetProductPages?.() }),
  );
  console.log(`Showroom web: ${API_MOUNT_PATH}/* is proxied to ${target}`);
  // docs/reliability.md "Security": headers (the CSP once the profiles are known, below),
  // page writes from the shop's own origin only, the operator token for the operator's pages.
  const csp: { policy?: (nonce: string) => string } = {};
  app.use(securityHeaders((nonce) => csp.policy?.(nonce)));
  app.use(crossSiteWrites(parseAllowedOrigins(process.env[ALLOWED_ORIGINS_ENV])));
  app.use(operatorSignIn(process.env[OPERATOR_TOKEN_ENV] || undefined));
  app.use(compression());
  // The RUM SDK's profiler (profiling sample rate 100, R-9.5) needs JS self-profiling allowed.
  app.use((_request, response, next) => {
    response.setHeader('Document-Policy', 'js-profiling');
    next();
  });
  // The video demo's faults (a held or missing segment, never cached), before its files.
  app.use(VIDEO_BASE_PATH, videoFaults());

  // Slow product images of a fault flag (decision 010): the api names them, this honours them.
  const imageDir = dev
    ? path.join(WEB_ROOT, 'public', 'img')
    : path.join(WEB_ROOT, 'build', 'client', 'img');
  app.use(SLOW_IMAGE_PATH, slowImages(imageDir));

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
    const now = new Date();
    const meta: BuildMeta = { id: `dev-${buildTimeLabel(now)}`, timestamp: now.toISOString() };
    mountBuildRoutes(app, meta, routeRules);
    // Profiles are read from the current build, so an edit shows without a restart.
    app.get(
      PROFILE_ROUTE,
      profileHandler(async () => runStartupChecks(await loadBuild())),
    );
    const getLoadContext = loadContextFor({ id: meta.id, pollIntervalMs });
    app.use(createRequestHandler({ build: loadBuild, mode: 'development', getLoadContext }));
    app.use(genericErrors());
    return app;
  }

  const clientDir = path.join(WEB_ROOT, 'build', 'client');
  const build = (await import(path.join(WEB_ROOT, 'build', 'server', 'index.js'))) as ServerBuild;
  const profiles = runStartupChecks(build);
  const connect = connectSources(profiles);
  csp.policy = (nonce) => pageContentSecurityPolicy(nonce, connect);
  const meta = readBuildMeta(path.join(WEB_ROOT, 'build'), build.assets.version, (message) =>
    console.warn(message),
  );
  console.log(`Showroom web: build ${meta.id}`);
  recordBuildMarker(meta.id);
  mountBuildRoutes(app, meta, routeRules);
  app.get(
    PROFILE_ROUTE,
    profileHandler(() => profiles),
  );
  // Hashed build assets never change; product images change only with a new build. Scripts
  // and stylesheets go out as the build compressed them (scripts/precompress.mjs).
  const assetsDir = path.join(clientDir, 'assets');
  app.use('/assets', precompressed(assetsDir));
  app.use('/assets', express.static(assetsDir, { immutable: true, maxAge: '1y' }));
  // A missing image answers 404 here (broken image URLs of a fault flag), not a rendered page.
  app.use('/img', express.static(imageDir, { maxAge: '7d', fallthrough: false }));
  // The video demo's DASH manifest and segments change only with a new build, like the images.
  app.use(VIDEO_BASE_PATH, express.static(path.join(clientDir, 'video'), { maxAge: '7d' }));
  app.use(express.static(clientDir, { maxAge: '1h', index: false }));
  const getLoadContext = loadContextFor({ id: meta.id, pollIntervalMs });
  // Pages that do not depend on the shopper are rendered once per TTL (server/page-cache.ts).
  const render = createFetchHandler(build, 'production');
  const pageCache = createPageCache({
    render: (request, verdict) =>
      render(request, { ...getLoadContext(), cspNonce: CACHED_PAGE_NONCE, pageCache: verdict }),
    bypass: createFaultWatch(apiTarget()),
    rewrite: (body, response) => {
      const nonce = cspNonceOf(response);
      return nonce ? Buffer.from(body.toString('utf8').replaceAll(CACHED_PAGE_NONCE, nonce)) : body;
    },
  });
  pages.forgetProductPages = pageCache.forgetProductPages;
  app.use(pageCache);
  app.use(createRequestHandler({ build, mode: 'production', getLoadContext }));
  app.use(genericErrors());
  return app;
}

/**
 * Tells the api this build now serves, for the change markers the inspector shows beside what
 * a deploy changed (docs/decisions/011-scenario-catalogue.md); the api records each build id
 * once. A failure is only logged: markers never keep the shop from starting.
 */
function recordBuildMarker(buildId: string): void {
  fetch(`${apiTarget()}/markers/builds`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...operatorHeaders() },
    body: JSON.stringify({ buildId, operator: 'web server' }),
  }).then(
    (response) => {
      if (!response.ok) console.warn(`Showroom web: build marker answered ${response.status}`);
    },
    (error: unknown) => console.warn(`Showroom web: build marker not recorded (${String(error)})`),
  );
}

/**
 * The build's own routes (R-7.1, R-7.2) and the route rules' redirects (R-4.9), ahead of the
 * static files and the pages.
 */
function mountBuildRoutes(app: express.Express, meta: BuildMeta, routeRules: RouteRules): void {
  const warn = (message: string) => console.warn(message);
  app.use(buildsRouter({ meta, routeRules, prerendered: prerenderedPaths(apiTarget(), warn) }));
  app.use(routeRuleRedirects(routeRules));
}

/**
 * A new object per request, shared by every loader of that page load: loaders remember what
 * they asked the api for on it (app/lib/departments.server.ts), so a page asks once.
 */
function loadContextFor(
  build: DocumentBuild,
): (request?: unknown, response?: express.Response) => ShowroomLoadContext {
  return (_request, response) => {
    const cspNonce = response ? cspNonceOf(response) : undefined;
    return cspNonce ? { build, cspNonce } : { build };
  };
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
    const openOperatorPages = openOperatorRoutesWarning(
      'Showroom web',
      host,
      process.env[OPERATOR_TOKEN_ENV],
    );
    if (openOperatorPages) console.warn(openOperatorPages);
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
