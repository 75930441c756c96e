import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PAGE_CACHE_TTL_MS } from '../../server/page-cache';
import { withSecondShop } from './monitoring-helpers';
import { addToCart, ADDRESS, futureExpiry, productPath, startupDone } from './shop-helpers';

// New builds, the build manifest, route rules and prerendered pages (docs/requirements.md,
// docs/architecture.md "Builds").
//
// A real second build is impractical here (a build takes minutes on this machine, and the old
// chunks would have to disappear under an open page), so a deploy is emulated in the browser:
// `/builds/latest.json` answers another id and one chunk answers 404, as an old chunk does once
// the new build replaced it.

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
const API_PORT = Number(process.env.E2E_API_PORT ?? 3101);
/** A spare port beside this run's web server (web-server.spec.ts uses +7 to +9). */
const RULES_SERVER_PORT = WEB_PORT + 5;
// A shop of its own for the product page cache (other specs' offsets: see autopilot.spec.ts).
const ORDER_API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 55;
const ORDER_WEB_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 56;
const NEXT_BUILD = '29991231-235959-nextbuild';
const DEPARTMENTS = ['tables', 'chairs', 'sofas', 'bedding', 'lighting'];

/** The page's document loads (first load, reloads, full page loads), from now on. */
function documentLoads(page: Page): string[] {
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      loads.push(request.url());
    }
  });
  return loads;
}

/** Requests whose path matches, from now on. */
function requestsTo(page: Page, pattern: RegExp): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (pattern.test(new URL(request.url()).pathname)) seen.push(request.url());
  });
  return seen;
}

/** The emulated deploy: the server names another build from now on. */
async function announceNewBuild(page: Page) {
  await page.route('**/builds/latest.json*', (route) =>
    route.fulfill({ json: { id: NEXT_BUILD }, headers: { 'cache-control': 'no-cache' } }),
  );
}

const html = (page: Page) => page.locator('html');

/** A window property that a full page load forgets and a client-side navigation keeps. */
async function markDocument(page: Page) {
  await page.evaluate(() => Object.assign(window, { sameDocumentMark: true }));
}
const documentMarked = (page: Page) =>
  page.evaluate(() => (window as { sameDocumentMark?: boolean }).sameDocumentMark === true);

test.describe('R-7.1 R-7.2 the build calls', () => {
  test('latest.json names the build of the document; the manifest carries rules and prerendered paths', async ({
    page,
    request,
  }) => {
    const latest = await request.get(`/builds/latest.json?${Date.now()}`);
    expect(latest.status()).toBe(200);
    expect(latest.headers()['cache-control']).toBe('no-cache');
    const { id } = (await latest.json()) as { id: string };
    expect(id).toMatch(/^\d{8}-\d{6}-[A-Za-z0-9_-]+$/);

    const meta = await request.get(`/builds/meta/${id}.json`);
    expect(meta.status()).toBe(200);
    const manifest = (await meta.json()) as Record<string, unknown>;
    expect(manifest).toEqual({
      id,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      routeRules: {
        '/sale': { redirect: { to: '/department/sofas', statusCode: 302 } },
        '/rum-docs': {
          redirect: { to: 'https://docs.datadoghq.com/real_user_monitoring/', statusCode: 302 },
        },
      },
      prerendered: expect.arrayContaining([
        '/scenarios',
        ...DEPARTMENTS.map((slug) => `/department/${slug}`),
        productPath(13, 'chairs', 'standard'),
        productPath(13, 'chairs', 'special'),
        productPath(60, 'lighting', 'special'),
      ]),
    });

    const unknown = await request.get('/builds/meta/20000101-000000-gone.json');
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No build "20000101-000000-gone" on this server' },
    });

    // The document tells the browser the same build.
    await page.goto('/demo');
    await startupDone(page);
    await expect(page.getByTestId('demo-build-current')).toHaveText(id);
  });
});

test.describe('R-4.20 a new build', () => {
  test('a chunk that fails to load after a new build reloads the page once, and not again within 10 s', async ({
    page,
    consoleWatch,
  }) => {
    // The old chunk is gone (404), as it is once the new build replaced it.
    consoleWatch.allow(/Failed to load resource: the server responded with a status of 404/);
    await page.clock.install();
    await announceNewBuild(page);
    await page.route(/\/assets\/search-suggest-[\w-]+\.js$/, (route) =>
      route.fulfill({ status: 404, body: 'Not Found' }),
    );
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    const loads = documentLoads(page);
    const search = page.getByRole('searchbox', { name: 'Search products' });
    // The search box loads its suggestions chunk on focus, every time until it has it.
    const loadSuggestions = async () => {
      await search.blur();
      await search.focus();
    };

    await page.goto('/department/chairs/product/13');
    await expect(html(page)).toHaveAttribute('data-build-watch', 'on');
    // The failing chunk makes the watch ask for the latest build, finds a new one: reload.
    const reloaded = page.waitForEvent('load');
    await loadSuggestions();
    await reloaded;
    expect(loads).toHaveLength(2);
    expect(warnings).toContain(
      'A code chunk failed to load after a new build: reloading /department/chairs/product/13',
    );

    // Reloaded: the chunk fails again within 10 s, and the page stays.
    await expect(html(page)).toHaveAttribute('data-build-watch', 'on');
    const refused = page.waitForEvent('console', (message) =>
      message.text().startsWith('A code chunk failed to load after a new build; not reloading'),
    );
    await loadSuggestions();
    expect((await refused).text()).toBe(
      'A code chunk failed to load after a new build; not reloading /department/chairs/product/13 again within 10 s',
    );
    expect(loads).toHaveLength(2);
    await expect(search).toBeVisible();

    // 10 s later the same failure may reload the path again.
    await page.clock.fastForward(10_000);
    const reloadedAgain = page.waitForEvent('load');
    await loadSuggestions();
    await reloadedAgain;
    expect(loads).toHaveLength(3);
  });

  test('polling notices a new build; links then load the document instead of old code', async ({
    page,
  }) => {
    await page.clock.install();
    await announceNewBuild(page);
    const loads = documentLoads(page);
    await page.goto('/demo');
    await startupDone(page);
    await expect(page.getByTestId('demo-build-latest')).toHaveText('not asked yet');
    await expect(page.getByTestId('demo-build-new')).toHaveText('no');

    // The shop's own calls are answered first: jumping 5 minutes ahead would time out one in flight.
    await expect(page.getByTestId('cart-count')).toHaveAttribute('data-loaded', 'true');
    // The default interval: every 5 minutes (R-9.1, README "Configuration").
    await page.clock.fastForward('05:00');
    await expect(page.getByTestId('demo-build-latest')).toHaveText(NEXT_BUILD);
    await expect(page.getByTestId('demo-build-new')).toHaveText('yes: reload to use it');
    await expect(page.getByTestId('demo-build-error')).toHaveText('none');

    await markDocument(page);
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Feature flags' })
      .click();
    await expect(page).toHaveURL(/\/flags$/);
    await expect.poll(() => loads.length).toBe(2);
    expect(await documentMarked(page)).toBe(false);
  });

  test('a failing check is only logged and shown', async ({ page }) => {
    await page.route('**/builds/latest.json*', (route) =>
      route.fulfill({ status: 200, json: { version: 'no id here' } }),
    );
    const warned = page.waitForEvent('console', (message) =>
      message.text().startsWith('New-build check failed:'),
    );
    await page.goto('/demo');
    await startupDone(page);
    await page.getByTestId('demo-build').getByRole('button', { name: 'Check now' }).click();
    expect((await warned).type()).toBe('warning');
    await expect(page.getByTestId('demo-build-error')).toHaveText(
      'GET /builds/latest.json answered no id',
    );
    await expect(page.getByTestId('demo-build-new')).toHaveText('no');
  });
});

test.describe('R-4.21 the manifest prefetch', () => {
  test('starts 1 s after the load event', async ({ page }) => {
    await page.goto('/scenarios');
    await expect(html(page)).toHaveAttribute('data-build-manifest', 'loaded');
    const { loadedAt, requestedAt } = await page.evaluate(() => {
      const navigation = performance.getEntriesByType(
        'navigation',
      )[0] as PerformanceNavigationTiming;
      const meta = performance
        .getEntriesByType('resource')
        .find((entry) => new URL(entry.name).pathname.startsWith('/builds/meta/'));
      return { loadedAt: navigation.loadEventStart, requestedAt: meta?.startTime ?? -1 };
    });
    // Chromium coarsens performance timestamps (0.1 ms steps, with jitter): a timer of exactly
    // 1 s once measured 999.9 ms here, so the bound allows one step either way of each stamp.
    expect(requestedAt - loadedAt).toBeGreaterThanOrEqual(1_000 - 0.2);
    // "~1 s": a timer of 1 s, not 1 s plus the time of something else.
    expect(requestedAt - loadedAt).toBeLessThan(3_000);
  });

  test('is left out on a slow-2g connection', async ({ page }) => {
    // Every request waits 2.1 s: the page takes a while.
    test.slow();
    const manifests = requestsTo(page, /^\/builds\/meta\//);
    // A round trip of 2010 ms or more is what Chromium reports as slow-2g; the throughput is
    // kept generous so the page does not take minutes.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 2_100,
      downloadThroughput: (4 * 1024 * 1024) / 8,
      uploadThroughput: (1024 * 1024) / 8,
    });
    await page.goto('/scenarios');
    expect(
      await page.evaluate(
        () =>
          (navigator as Navigator & { connection?: { effectiveType?: string } }).connection
            ?.effectiveType,
      ),
    ).toBe('slow-2g');
    await expect(html(page)).toHaveAttribute('data-build-manifest', 'skipped', {
      timeout: 30_000,
    });
    expect(manifests).toEqual([]);
  });
});

test.describe('R-4.9 route rules', () => {
  test('an internal rule: the server redirects documents and data requests', async ({
    request,
  }) => {
    const document = await request.get('/sale', { maxRedirects: 0 });
    expect(document.status()).toBe(302);
    expect(document.headers()['location']).toBe('/department/sofas');
    // React Router's redirect for a client-side navigation that did not know the rule.
    const data = await request.get('/sale.data', { maxRedirects: 0 });
    expect(data.status()).toBe(204);
    expect(data.headers()['x-remix-redirect']).toBe('/department/sofas');
    expect(data.headers()['x-remix-reload-document']).toBeUndefined();
    const external = await request.get('/rum-docs.data', { maxRedirects: 0 });
    expect(external.headers()['x-remix-redirect']).toBe(
      'https://docs.datadoghq.com/real_user_monitoring/',
    );
    expect(external.headers()['x-remix-reload-document']).toBe('true');
  });

  test('an internal rule navigates client-side, with the manifest', async ({ page }) => {
    const ruleRequests = requestsTo(page, /^\/sale/);
    await page.goto('/department/chairs');
    await startupDone(page);
    await expect(html(page)).toHaveAttribute('data-build-manifest', 'loaded');
    const loads = documentLoads(page);
    await markDocument(page);
    await page
      .getByRole('complementary', { name: 'All departments' })
      .getByRole('link', { name: 'Sale' })
      .click();
    await expect(page).toHaveURL(/\/department\/sofas$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sofas' })).toBeVisible();
    expect(await documentMarked(page)).toBe(true);
    expect(loads).toEqual([]);
    // The browser applied the rule itself: it never asked for /sale.
    expect(ruleRequests).toEqual([]);
  });

  test('without the manifest (its failure only logged) the rule still applies, through the server', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/Failed to load resource: the server responded with a status of 503/);
    await page.route('**/builds/meta/*', (route) => route.fulfill({ status: 503, body: '' }));
    const warned = page.waitForEvent('console', (message) =>
      message.text().startsWith('Build manifest not loaded:'),
    );
    const dataRequests = requestsTo(page, /^\/sale\.data$/);
    await page.goto('/department/chairs');
    await startupDone(page);
    expect((await warned).type()).toBe('warning');
    await expect(html(page)).toHaveAttribute('data-build-manifest', 'failed');
    const loads = documentLoads(page);
    await markDocument(page);
    await page
      .getByRole('complementary', { name: 'All departments' })
      .getByRole('link', { name: 'Sale' })
      .click();
    await expect(page).toHaveURL(/\/department\/sofas$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sofas' })).toBeVisible();
    // React Router asked for /sale's data and followed the server's redirect, in the same document.
    expect(dataRequests).toHaveLength(1);
    expect(await documentMarked(page)).toBe(true);
    expect(loads).toEqual([]);
  });

  test('an external rule loads the other site in full; a bad rule is skipped with a warning', async ({
    page,
  }) => {
    // A web server of its own starts first.
    test.slow();
    // A second origin: this run's web server under 127.0.0.1 instead of localhost.
    const target = `http://127.0.0.1:${WEB_PORT}/department/chairs`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-route-rules-'));
    const rulesFile = path.join(dir, 'route-rules.json');
    fs.writeFileSync(
      rulesFile,
      JSON.stringify({
        routeRules: {
          '/rum-docs': { redirect: { to: target, statusCode: 307 } },
          '/broken': { redirect: { to: 'ftp://files.example.com' } },
        },
      }),
    );
    let output = '';
    const server = spawn(
      process.execPath,
      [path.join(WEB_ROOT, 'build', 'server-main', 'main.js')],
      {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          PORT: String(RULES_SERVER_PORT),
          API_PORT: String(API_PORT),
          ROUTE_RULES_PATH: rulesFile,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    try {
      // Loading the server build takes a while on a busy machine.
      await expect.poll(() => output, { timeout: 30_000 }).toContain('listening');
      expect(output).toContain(
        `Route rules (${rulesFile}): skipping "/broken": redirect.to "ftp://files.example.com" must be a path of this shop (/…) or an http(s) address`,
      );
      expect(output).toContain(`1 route rule(s) from ${rulesFile}`);

      const loads = documentLoads(page);
      await page.goto(`http://localhost:${RULES_SERVER_PORT}/demo`);
      await startupDone(page);
      await expect(html(page)).toHaveAttribute('data-build-manifest', 'loaded');
      await page.getByTestId('demo-route-rules').getByRole('link', { name: '/rum-docs' }).click();
      await expect(page).toHaveURL(target);
      await expect(page.getByRole('heading', { level: 1, name: 'Chairs' })).toBeVisible();
      // A full page load of the other origin, asked for by the browser itself (no /rum-docs).
      expect(loads).toEqual([`http://localhost:${RULES_SERVER_PORT}/demo`, target]);
    } finally {
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.describe('prerendered pages', () => {
  test('a department listing is rendered once and served to every shopper alike', async ({
    page,
    request,
    playwright,
  }) => {
    // A shopper with a session, an identity and a cart.
    await addToCart(page, { id: 13, department: 'chairs', edition: 'standard' }, 1);
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).toContain('showroom_session');
    const name = await page.evaluate(() => localStorage.getItem('user_name'));
    expect(name).toBeTruthy();

    // Under 127.0.0.1 no other test asks for this listing: its first request renders it.
    const url = `http://127.0.0.1:${WEB_PORT}/department/bedding`;
    const asShopper = await request.get(url, {
      headers: { cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ') },
    });
    expect(asShopper.status()).toBe(200);
    expect(asShopper.headers()['x-showroom-cache']).toBe('miss');
    expect(asShopper.headers()['set-cookie']).toBeUndefined();
    const page1 = await asShopper.text();
    expect(page1).toContain('Bedding');
    for (const cookie of cookies) expect(page1).not.toContain(cookie.value);
    expect(page1).not.toContain(name);

    const stranger = await playwright.request.newContext();
    try {
      const again = await stranger.get(url);
      expect(again.headers()['x-showroom-cache']).toBe('hit');
      // The same page, but for each response's own CSP nonce (docs/reliability.md "Security").
      const withoutNonces = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce=""');
      const page2 = await again.text();
      expect(page2).not.toBe(page1);
      expect(withoutNonces(page2)).toBe(withoutNonces(page1));
    } finally {
      await stranger.dispose();
    }

    // A listing with a query string is rendered per request.
    const sorted = await request.get(`${url}?sort=price-asc`);
    expect(sorted.status()).toBe(200);
    expect(sorted.headers()['x-showroom-cache']).toBeUndefined();
  });
});

test.describe('product pages from the page cache', () => {
  // A shop of its own: no other test's order forgets its pages.
  withSecondShop(ORDER_API_PORT, ORDER_WEB_PORT);
  const web = `http://127.0.0.1:${ORDER_WEB_PORT}`;

  test('are served from memory until an order through the same web server takes stock', async ({
    request,
  }) => {
    const bought = { id: 41, department: 'bedding', edition: 'standard' } as const;
    const boughtPage = `${web}${productPath(bought.id, bought.department, bought.edition)}`;
    // Its "You may also like" cards show the bought product's stock too.
    const neighbour = `${web}${productPath(42, 'bedding', 'standard')}`;
    const stockAtApi = async () =>
      ((await (await request.get(`${web}/api/products/${bought.id}`)).json()) as { stock: number })
        .stock;
    const shownStock = async (answer: { text(): Promise<string> }) =>
      Number(/data-testid="product-stock"[^>]*>(\d+) in stock/.exec(await answer.text())?.[1]);
    const state = (answer: { headers(): Record<string, string> }) =>
      answer.headers()['x-showroom-cache'];

    const renderedAt = Date.now();
    const first = await request.get(boughtPage);
    expect(state(first)).toBe('miss');
    const before = await shownStock(first);
    expect(before).toBe(await stockAtApi());
    expect(state(await request.get(neighbour))).toBe('miss');
    expect(state(await request.get(boughtPage))).toBe('hit');
    expect(state(await request.get(neighbour))).toBe('hit');

    // Two of it ordered through this web server's /api, as the checkout places an order.
    const added = await request.post(`${web}/api/cart/items`, {
      data: { productId: bought.id, edition: bought.edition, quantity: 2 },
    });
    expect(added.status(), await added.text()).toBe(200);
    const order = await request.post(`${web}/api/checkout/orders`, {
      headers: { 'idempotency-key': `builds-${renderedAt}` },
      data: {
        shipping: { ...ADDRESS, country: 'US' },
        payment: {
          type: 'card',
          card: { number: '4242 4242 4242 4242', expiry: futureExpiry(), cvc: '123' },
        },
      },
    });
    expect(order.status(), await order.text()).toBe(201);
    // Still inside the pages' TTL: only the order can have made them go.
    expect(Date.now() - renderedAt).toBeLessThan(PAGE_CACHE_TTL_MS);

    const after = await request.get(boughtPage);
    expect(state(after)).toBe('miss');
    expect(await shownStock(after)).toBe(before - 2);
    expect(state(await request.get(neighbour))).toBe('miss');
  });
});
