import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPageCache,
  isPrerenderedPath,
  PAGE_CACHE_HEADER,
  productPagePaths,
  type RenderVerdict,
} from './page-cache';

interface Rendered {
  url: string;
  cookie: string | null;
}

/** The page cache in front of a stand-in React Router handler that records what it rendered. */
async function start(
  answer: (request: Request, verdict: RenderVerdict) => Response | Promise<Response> = () =>
    new Response('<html>page</html>', { headers: { 'content-type': 'text/html' } }),
  options: {
    ttlMs?: number;
    maxEntries?: number;
    now?: () => number;
    bypass?: () => Promise<boolean>;
  } = {},
) {
  const rendered: Rendered[] = [];
  const app = express();
  // Requests that reached the cache, and who waits for how many.
  let arrived = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  app.use((_request, _response, next) => {
    arrived += 1;
    for (const waiter of waiting) if (arrived >= waiter.count) waiter.resolve();
    next();
  });
  const arrivals = (count: number) =>
    new Promise<void>((resolve) => {
      if (arrived >= count) resolve();
      else waiting.push({ count, resolve });
    });
  const cache = createPageCache({
    render: async (request, verdict) => {
      rendered.push({ url: request.url, cookie: request.headers.get('cookie') });
      return answer(request, verdict);
    },
    ...options,
  });
  app.use(cache);
  app.use((_request, response) => void response.send('rendered per request'));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  servers.push(server);
  const port = (server.address() as AddressInfo).port;
  // node:http, not fetch: fetch would not send a Host header of our choosing.
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{
      status: number;
      headers: IncomingHttpHeaders;
      body: string;
      state: string | null;
    }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => {
            const state = response.headers[PAGE_CACHE_HEADER.toLowerCase()];
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body,
              state: typeof state === 'string' ? state : null,
            });
          });
        })
        .on('error', reject);
    });
  return { rendered, get, arrivals, forgetProductPages: cache.forgetProductPages };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

describe('the page cache (docs/architecture.md "Performance", R-7.1 prerendered)', () => {
  it('caches the scenario catalogue, department listings and product pages, nothing else', () => {
    expect(isPrerenderedPath('/scenarios')).toBe(true);
    expect(isPrerenderedPath('/department/chairs')).toBe(true);
    expect(isPrerenderedPath('/department/chairs/product/13')).toBe(true);
    expect(isPrerenderedPath('/department/chairs/product/special-edition-13')).toBe(true);
    for (const path of [
      '/',
      '/cart',
      '/department/Chairs',
      '/department/chairs/',
      '/department/chairs.data',
      '/department/chairs/product/13.data',
      '/department/chairs/product/13/',
      '/department/chairs/product/0',
      '/department/chairs/product/special-13',
      '/department/chairs/product/13/extra',
      '/scenarios/1',
    ]) {
      expect(isPrerenderedPath(path), path).toBe(false);
    }
  });

  it('names a product’s pages as the shop links them, both editions', () => {
    const product = { id: 24, department: 'chairs' };
    const paths = productPagePaths(product);
    expect(paths).toEqual([
      '/department/chairs/product/24',
      '/department/chairs/product/special-edition-24',
    ]);
    for (const path of paths) expect(isPrerenderedPath(path), path).toBe(true);
  });

  it('forgets every product page when asked (an order took stock), and no listing', async () => {
    const { rendered, get, forgetProductPages } = await start();
    const pages = [
      '/department/chairs/product/13',
      '/department/chairs/product/special-edition-13',
      '/department/tables/product/2',
      '/department/chairs',
    ];
    for (const path of pages) expect((await get(path)).state, path).toBe('miss');
    expect((await get('/department/tables/product/2', { host: 'shop.test' })).state).toBe('miss');
    forgetProductPages();
    const states = [];
    for (const path of pages) states.push((await get(path)).state);
    expect(states).toEqual(['miss', 'miss', 'miss', 'hit']);
    expect((await get('/department/tables/product/2', { host: 'shop.test' })).state).toBe('miss');
    expect(rendered).toHaveLength(pages.length + 1 + 4);
  });

  it('never keeps a page its render marked, after its first bytes, as not to keep', async () => {
    let failing = true;
    // The shell first; the verdict comes with the last part, as a streamed part fails.
    const { rendered, get } = await start((_request, verdict) => {
      const parts = ['<html>', 'page</html>'];
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const part = parts.shift();
          if (part === undefined) return controller.close();
          if (parts.length === 0 && failing) verdict.keep = false;
          controller.enqueue(new TextEncoder().encode(part));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/html' } });
    });
    const first = await get('/department/chairs/product/13');
    const second = await get('/department/chairs/product/13');
    expect([first.state, second.state]).toEqual(['miss', 'miss']);
    expect(second.body).toBe('<html>page</html>');
    failing = false;
    expect((await get('/department/chairs/product/13')).state).toBe('miss');
    expect((await get('/department/chairs/product/13')).state).toBe('hit');
    expect(rendered).toHaveLength(3);
  });

  it('renders a listing once and serves the same bytes and headers again', async () => {
    const { rendered, get } = await start();
    const first = await get('/department/chairs');
    const second = await get('/department/chairs');
    expect([first.state, second.state]).toEqual(['miss', 'hit']);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('text/html');
    expect(rendered).toHaveLength(1);
  });

  it('while a fault flag is on, renders every request for its own shopper', async () => {
    let faults = true;
    const { rendered, get } = await start(undefined, { bypass: () => Promise.resolve(faults) });
    const during = await get('/department/chairs', { cookie: 'showroom_session=s%3Aa' });
    expect([during.state, during.body]).toEqual(['bypass', 'rendered per request']);
    expect(rendered).toEqual([]);
    faults = false;
    expect((await get('/department/chairs')).state).toBe('miss');
    expect((await get('/department/chairs')).state).toBe('hit');
  });

  it('renders from a request without the shopper’s cookie', async () => {
    const { rendered, get } = await start();
    await get('/department/sofas', { cookie: 'showroom_session=s%3Asecret' });
    expect(rendered).toEqual([
      { url: expect.stringMatching(/\/department\/sofas$/), cookie: null },
    ]);
  });

  it('leaves query strings, other paths and other methods to the page handler', async () => {
    const { rendered, get } = await start();
    for (const path of ['/department/chairs?sort=price-asc', '/cart', '/department/chairs.data']) {
      const { body, state } = await get(path);
      expect(body).toBe('rendered per request');
      expect(state).toBeNull();
    }
    expect(rendered).toEqual([]);
  });

  it('never keeps an answer that is not 200 or that sets a cookie', async () => {
    const { rendered, get } = await start((request) =>
      request.url.endsWith('/nope')
        ? new Response('not found', { status: 404 })
        : new Response('hello', { headers: { 'set-cookie': 'a=1' } }),
    );
    const states = [];
    for (const path of ['/department/nope', '/department/nope', '/scenarios', '/scenarios']) {
      states.push((await get(path)).state);
    }
    expect(states).toEqual(['miss', 'miss', 'miss', 'miss']);
    expect(rendered).toHaveLength(4);
    expect((await get('/department/nope')).status).toBe(404);
  });

  it('keys by host, since the document predicts a deployment profile from it', async () => {
    const { rendered, get } = await start();
    await get('/scenarios');
    await get('/scenarios', { host: 'shop.example.com' });
    expect((await get('/scenarios', { host: 'shop.example.com' })).state).toBe('hit');
    expect(rendered.map((r) => new URL(r.url).host)).toEqual([
      expect.stringMatching(/^127\.0\.0\.1:\d+$/),
      'shop.example.com',
    ]);
  });

  it('renders again once the TTL has passed', async () => {
    let now = 1_000;
    const { rendered, get } = await start(undefined, { ttlMs: 10_000, now: () => now });
    await get('/department/tables');
    now += 9_999;
    expect((await get('/department/tables')).state).toBe('hit');
    now += 1;
    expect((await get('/department/tables')).state).toBe('miss');
    expect(rendered).toHaveLength(2);
  });

  it('concurrent requests share one render', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { rendered, get, arrivals } = await start(async () => {
      await released;
      return new Response('slow page');
    });
    const both = Promise.all([get('/department/bedding'), get('/department/bedding')]);
    // Both requests are in before the render ends.
    await arrivals(2);
    release();
    const answers = await both;
    expect(answers.map((answer) => answer.body)).toEqual(['slow page', 'slow page']);
    expect(rendered).toHaveLength(1);
  });

  it('keeps at most maxEntries pages, dropping the oldest', async () => {
    const { rendered, get } = await start(undefined, { maxEntries: 2 });
    for (const path of ['/department/a', '/department/b', '/department/c', '/department/a']) {
      await get(path);
    }
    expect(rendered.map((r) => new URL(r.url).pathname)).toEqual([
      '/department/a',
      '/department/b',
      '/department/c',
      '/department/a',
    ]);
  });
});
