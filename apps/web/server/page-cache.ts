import type { RequestHandler, Response as ExpressResponse } from 'express';
import { parseProductParam, productPath } from '@showroom/contracts/product-paths';

/**
 * Pages that do not depend on the shopper are rendered once and served again from memory
 * (docs/architecture.md "Performance"; the build manifest lists them as prerendered, R-7.1):
 * the scenario catalogue, department listings and product pages without a query string. They
 * are rendered from a request that carries no cookie, so nothing of one shopper can reach
 * another. An order placed through this server forgets every product page (each shows stock:
 * its own and its recommendations').
 */

/** How long a rendered page is served again: as long as the department list is reused. */
export const PAGE_CACHE_TTL_MS = 10_000;
/**
 * At most this many pages are kept (the key holds the Host header, which the client chooses):
 * every product page of both editions and every listing of the seeded catalog, for two hosts.
 */
export const PAGE_CACHE_MAX_ENTRIES = 300;
/**
 * `hit` (served from memory), `miss` (rendered for this request) or `bypass` (rendered for this
 * request's shopper: a fault flag is on) on every cacheable path.
 */
export const PAGE_CACHE_HEADER = 'X-Showroom-Cache';

/** A department's slug, as the department route accepts it (app/routes/department.tsx). */
const DEPARTMENT_PATH = /^\/department\/[a-z0-9-]{1,40}$/;
/** A product page's path; its last segment is checked as the product route parses it. */
const PRODUCT_PATH = /^\/department\/[a-z0-9-]{1,40}\/product\/([^/]+)$/;

function isProductPagePath(pathname: string): boolean {
  const segment = PRODUCT_PATH.exec(pathname)?.[1];
  return segment !== undefined && parseProductParam(segment) !== null;
}

/**
 * Handed to each render for the cache: a page that holds a failure of its own — a part that
 * could not be loaded, an error after the shell — sets `keep` to false, and it is served to
 * the request that rendered it (and those sharing that render) but never kept.
 */
export interface RenderVerdict {
  keep: boolean;
}

/** A product's pages, standard and special edition, as the shop links them. */
export function productPagePaths(product: ProductPathParts): string[] {
  return [productPath(product), productPath(product, 'special')];
}

/** What a product page's path is made of. */
export type ProductPathParts = Parameters<typeof productPath>[0];

/** Whether a path is one of the pages served from the cache (without a query string). */
export function isPrerenderedPath(pathname: string): boolean {
  return pathname === '/scenarios' || DEPARTMENT_PATH.test(pathname) || isProductPagePath(pathname);
}

/** A rendered answer kept as bytes, with the headers it was rendered with. */
interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** Whether it may be served again: 200 and no cookie set. */
  storable: boolean;
}

interface Entry {
  page: Promise<CachedPage>;
  until: number;
}

export interface PageCacheOptions {
  /**
   * React Router's fetch-style handler: `createRequestHandler(build, mode)` from react-router,
   * with `verdict` in its load context (read once the whole page has been rendered).
   */
  render: (request: Request, verdict: RenderVerdict) => Promise<Response>;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
  /**
   * True while pages depend on the shopper after all (a fault flag is on): each request is
   * then rendered for its own shopper (`X-Showroom-Cache: bypass`).
   */
  bypass?: () => Promise<boolean>;
  /**
   * Adapts a stored page to the response it answers: the web server swaps the placeholder nonce
   * a cached page was rendered with for this response's CSP nonce (server/security.ts).
   */
  rewrite?: (body: Buffer, response: ExpressResponse) => Buffer;
}

async function buffered(response: Response, verdict: RenderVerdict): Promise<CachedPage> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers = [...response.headers.entries()].filter(
    ([name]) => name.toLowerCase() !== 'content-length',
  );
  const storable = response.status === 200 && !response.headers.has('set-cookie') && verdict.keep;
  return { status: response.status, headers, body, storable };
}

function send(
  response: ExpressResponse,
  page: CachedPage,
  state: 'hit' | 'miss',
  rewrite: (body: Buffer, response: ExpressResponse) => Buffer,
): void {
  response.status(page.status);
  // Node's own setHeader: the headers exactly as rendered (Express would add a charset).
  const values = new Map<string, string[]>();
  for (const [name, value] of page.headers) values.set(name, [...(values.get(name) ?? []), value]);
  for (const [name, list] of values) response.setHeader(name, list.length === 1 ? list[0]! : list);
  response.setHeader(PAGE_CACHE_HEADER, state);
  response.end(rewrite(page.body, response));
}

/** The page cache's middleware, and a way to drop its product pages. */
export type PageCache = RequestHandler & {
  /**
   * The next request of every product page (both editions, any host) renders it again: an
   * order took stock, which each shows for its product and its recommendations. Listings keep
   * theirs until the TTL (stock counts up to 10 s old).
   */
  forgetProductPages: () => void;
};

/**
 * Express middleware in front of the React Router handler. A GET of a cacheable path without a
 * query string is answered from memory when a render of the same host and path is younger than
 * the TTL (`X-Showroom-Cache: hit`); otherwise it is rendered once — concurrent requests share
 * the render — from a request with no cookie and no other header of the client, buffered, and
 * kept when it answered 200 without setting a cookie (`miss`). The key holds the host because
 * the root loader predicts a deployment profile from the Host header. Everything else goes on
 * to the next handler.
 */
export function createPageCache({
  render,
  ttlMs = PAGE_CACHE_TTL_MS,
  maxEntries = PAGE_CACHE_MAX_ENTRIES,
  now = Date.now,
  bypass = () => Promise.resolve(false),
  rewrite = (body) => body,
}: PageCacheOptions): PageCache {
  const entries = new Map<string, Entry>();

  const renderOnce = (key: string): Entry => {
    // The key is the page's address: no query string, and no header of the client but Host.
    const verdict: RenderVerdict = { keep: true };
    const page = render(new Request(key, { headers: { accept: 'text/html' } }), verdict).then(
      (response) => buffered(response, verdict),
    );
    const entry = { page, until: now() + ttlMs };
    entries.set(key, entry);
    const forget = () => {
      if (entries.get(key) === entry) entries.delete(key);
    };
    page.then((rendered) => rendered.storable || forget(), forget);
    // The oldest entries go first (a Map keeps insertion order).
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
    return entry;
  };

  const handler: RequestHandler = async (request, response, next) => {
    if (request.method !== 'GET' || request.originalUrl.includes('?')) return next();
    if (!isPrerenderedPath(request.path)) return next();
    try {
      if (await bypass()) {
        response.setHeader(PAGE_CACHE_HEADER, 'bypass');
        return next();
      }
    } catch (error) {
      return next(error);
    }
    let key: string;
    try {
      key = new URL(`${request.protocol}://${request.get('host') ?? 'localhost'}${request.path}`)
        .href;
    } catch {
      return next(); // a Host header that makes no address: React Router answers it
    }
    try {
      const cached = entries.get(key);
      if (cached && cached.until > now()) {
        // Rendered for an earlier request (or being rendered for one right now).
        const page = await cached.page;
        send(response, page, page.storable ? 'hit' : 'miss', rewrite);
        return;
      }
      if (cached) entries.delete(key);
      send(response, await renderOnce(key).page, 'miss', rewrite);
    } catch (error) {
      next(error);
    }
  };
  const forgetProductPages = () => {
    for (const key of entries.keys()) {
      if (isProductPagePath(new URL(key).pathname)) entries.delete(key);
    }
  };
  return Object.assign(handler, { forgetProductPages });
}
