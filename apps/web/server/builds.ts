import express, { type RequestHandler } from 'express';
import type { ErrorResponse } from '@showroom/contracts/errors';
import type { BuildMeta } from './build-info.js';
import { MAX_PAGE_SIZE } from '@showroom/contracts/product-query';
import { PAGE_CACHE_TTL_MS, productPagePaths, type ProductPathParts } from './page-cache.js';
import { isExternalTarget, type RouteRules } from './route-rules.js';

/** polled by open pages (with a `?{timestamp}` cache-buster) to notice a new build. */
export const LATEST_ROUTE = '/builds/latest.json';
/** the app manifest of one build. */
export const META_ROUTE = '/builds/meta/:id.json';

/** The app manifest: the build, its route rules and the pages served prerendered. */
export interface BuildManifest extends BuildMeta {
  routeRules: RouteRules;
  prerendered: string[];
}

export interface BuildsOptions {
  meta: BuildMeta;
  routeRules: RouteRules;
  /** Paths served from the page cache (server/page-cache.ts). */
  prerendered: () => Promise<string[]>;
}

/** `GET /builds/latest.json` and `GET /builds/meta/{buildId}.json`. */
export function buildsRouter({ meta, routeRules, prerendered }: BuildsOptions): express.Router {
  const router = express.Router();
  router.get(LATEST_ROUTE, (_request, response) => {
    // Revalidated on every poll: a new deploy must show at once.
    response.setHeader('Cache-Control', 'no-cache');
    response.json({ id: meta.id });
  });
  router.get(META_ROUTE, async (request, response, next) => {
    try {
      const id = String(request.params.id);
      // Route rules come from a file read at start, so a restart may change them: revalidate.
      response.setHeader('Cache-Control', 'no-cache');
      if (id !== meta.id) {
        const notFound: ErrorResponse = {
          error: { code: 'NOT_FOUND', message: `No build "${id}" on this server` },
        };
        response.status(404).json(notFound);
        return;
      }
      const manifest: BuildManifest = { ...meta, routeRules, prerendered: await prerendered() };
      response.json(manifest);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/**
 * on the server: a document request for a rule's path is redirected with the rule's status;
 * a page data request for it (`/sale.data`, a client-side navigation from a page that has not
 * read the manifest) answers React Router's redirect (204 with X-Remix-Redirect), a full page
 * load when the target is another site.
 */
export function routeRuleRedirects(rules: RouteRules): RequestHandler {
  return (request, response, next) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const dataRequest = request.path.endsWith('.data');
    const rulePath = !dataRequest
      ? request.path
      : request.path === '/_root.data'
        ? '/'
        : request.path.slice(0, -'.data'.length);
    const rule = Object.hasOwn(rules, rulePath) ? rules[rulePath]?.redirect : undefined;
    if (!rule) return next();
    if (!dataRequest) {
      response.redirect(rule.statusCode, rule.to);
      return;
    }
    response.setHeader('X-Remix-Redirect', rule.to);
    response.setHeader('X-Remix-Status', String(rule.statusCode));
    if (isExternalTarget(rule.to)) response.setHeader('X-Remix-Reload-Document', 'true');
    response.status(204).end();
  };
}

/**
 * The paths the page cache serves, for the manifest: the scenario catalogue, every department
 * the api lists and each of their products in both editions (asked at most once per
 * PAGE_CACHE_TTL_MS; the last list known answers meanwhile). Before the api has answered once,
 * only the catalogue.
 */
export function prerenderedPaths(
  apiTarget: string,
  warn: (message: string) => void,
  now: () => number = Date.now,
): () => Promise<string[]> {
  let shared: { paths: Promise<string[]>; until: number } | undefined;
  const ask = async (): Promise<string[]> => {
    const get = async <T>(path: string): Promise<T> => {
      const response = await fetch(`${apiTarget}${path}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(5_000),
      });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
      return (await response.json()) as T;
    };
    const { departments } = await get<{ departments: { slug: string }[] }>('/departments');
    const productsOf = async (slug: string) => {
      const products: ProductPathParts[] = [];
      for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
        const page = await get<{ products: ProductPathParts[]; total: number }>(
          `/departments/${encodeURIComponent(slug)}/products?limit=${MAX_PAGE_SIZE}&offset=${offset}`,
        );
        products.push(...page.products);
        if (page.products.length === 0 || products.length >= page.total) return products;
      }
    };
    const products = (await Promise.all(departments.map(({ slug }) => productsOf(slug)))).flat();
    return [
      '/scenarios',
      ...departments.map((department) => `/department/${department.slug}`),
      ...products.flatMap(productPagePaths),
    ];
  };
  let lastKnown: string[] | undefined;
  return () => {
    if (shared === undefined || shared.until <= now()) {
      // Asked again at most once per TTL, a failure too (a slow api is not asked per request).
      shared = {
        until: now() + PAGE_CACHE_TTL_MS,
        paths: ask().then(
          (paths) => (lastKnown = paths),
          (error: unknown) => {
            warn(`Build manifest: prerendered pages unknown (${(error as Error).message})`);
            return lastKnown ?? ['/scenarios'];
          },
        ),
      };
    }
    // The last list known answers at once while the next one is asked for.
    return lastKnown ? Promise.resolve(lastKnown) : shared.paths;
  };
}
