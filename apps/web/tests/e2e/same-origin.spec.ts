import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { drawWithoutAnonymity, leavePage, rumSessionId } from './monitoring-helpers';
import {
  API_URL,
  CARDS,
  confirmedOrderId,
  fillAddress,
  fillCard,
  overrideFeature,
  startupDone,
} from './shop-helpers';

// The default `local` profile sends the browser to the page's own origin (/api, proxied by the
// web server): the shop works under a host name no profile knows and on other ports.

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Bought by the journey on the shared test api (no other spec buys lighting). */
const LAMP = { id: 53, name: 'Pivot Desk Lamp', department: 'lighting' } as const;
/** The whole shop started a second time on other ports (overridable for CI). */
const OTHER_WEB_PORT = Number(process.env.E2E_OTHER_WEB_PORT ?? 4000);
const OTHER_API_PORT = Number(process.env.E2E_OTHER_API_PORT ?? 4001);
const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);

// In this file's browser, shop.test resolves to this machine (nothing else changes).
test.use({
  launchOptions: async ({ launchOptions }, provide) => {
    await provide({
      ...launchOptions,
      args: [...(launchOptions.args ?? []), '--host-resolver-rules=MAP shop.test 127.0.0.1'],
    });
  },
});

interface FlagAnswer {
  data: { attributes: { flags: Record<string, { variationValue: unknown }> } };
}

/**
 * A shopper's visit on `origin`: flags from the flag service, a department, a product into the
 * cart, an order, and monitoring stored by the api at `apiUrl` (read there directly) — every
 * browser request staying on the page's origin.
 */
async function shopJourney(page: Page, request: APIRequestContext, origin: string, apiUrl: string) {
  const elsewhere: string[] = [];
  const apiCalls: Request[] = [];
  page.on('request', (call) => {
    const url = new URL(call.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) elsewhere.push(call.url());
    if (url.origin === origin && url.pathname.startsWith('/api/')) apiCalls.push(call);
  });
  const intakeStatuses: number[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${origin}/api/intake?ddforward=`)) {
      intakeStatuses.push(response.status());
    }
  });
  await drawWithoutAnonymity(page);
  // The single-page checkout, whatever the flag service says for this shopper.
  await overrideFeature(page, 'newCheckoutFlow', true);

  // The flag provider asks the flag service through the page origin, and gets assignments.
  const precompute = page.waitForResponse(
    (response) =>
      response.url().split('?')[0] === `${origin}/api/flags/precompute-assignments` &&
      response.request().method() === 'POST',
  );
  await page.goto(`${origin}/`);
  const flagsResponse = await precompute;
  expect(flagsResponse.status()).toBe(200);
  expect(flagsResponse.headers()['content-type']).toMatch(/^application\/vnd\.api\+json/);
  const assignments = (await flagsResponse.json()) as FlagAnswer;
  expect(Object.keys(assignments.data.attributes.flags)).toEqual(
    expect.arrayContaining(['new_checkout_flow', 'show_loyalty_program']),
  );
  await startupDone(page);
  await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready');

  // A department, a product from its grid, into the cart.
  await page
    .getByRole('navigation', { name: 'Departments' })
    .getByRole('link', { name: 'Lighting' })
    .click();
  await expect(page).toHaveURL(`${origin}/department/${LAMP.department}`);
  await page
    .getByTestId('product-card')
    .filter({ hasText: LAMP.name })
    .getByRole('link', { name: LAMP.name })
    .first()
    .click();
  await expect(page).toHaveURL(`${origin}/department/${LAMP.department}/product/${LAMP.id}`);
  const detail = page.getByTestId('product-detail');
  const added = page.waitForResponse(
    (response) =>
      response.url().startsWith(`${origin}/api/cart`) && response.request().method() === 'POST',
  );
  await detail.getByTestId('add-to-cart').click();
  await expect(detail.getByTestId('add-to-cart-result')).toContainText('Added to cart');
  const addCall = (await added).request();
  expect((await added).status()).toBeLessThan(300);
  // Traced like any call to the backend address: the api continues the trace.
  expect(await addCall.headerValue('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  await expect(page.getByTestId('cart-count')).toHaveText('1');

  // The order, with the test card.
  await page.getByTestId('cart-link').click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await page.getByRole('link', { name: 'Checkout' }).click();
  await fillAddress(page);
  await fillCard(page, CARDS.succeeds);
  await page.getByTestId('place-order').click();
  const orderId = await confirmedOrderId(page);
  // The session cookie lives on this origin: the browser reads its order back through /api.
  const order = await page.evaluate(async (id) => {
    const response = await fetch(`/api/orders/${id}`, { credentials: 'include' });
    return (await response.json()) as { id: string; lines: { productId: number }[] };
  }, orderId);
  expect(order).toMatchObject({ id: orderId, lines: [{ productId: LAMP.id }] });

  // The flag service's own value shows on /demo (not just a local override).
  await page.goto(`${origin}/demo`);
  await expect(page.getByTestId('demo-profile')).toHaveText('local');
  await expect(
    page.getByTestId('demo-flag-showLoyaltyProgram').getByTestId('flag-value'),
  ).toHaveText(/^(true|false)$/);

  // Monitoring: leaving the page flushes the SDK's batch to the intake behind /api.
  const sessionId = await rumSessionId(page);
  await leavePage(page);
  let stored: { session: { id: string; viewCount: number }; timeline: { title: string }[] } | null =
    null;
  await expect
    .poll(
      async () => {
        const response = await request.get(`${apiUrl}/monitoring/sessions/${sessionId}`);
        stored = response.status() === 200 ? await response.json() : null;
        return stored?.timeline.map((entry) => entry.title) ?? [];
      },
      { timeout: 30_000 },
    )
    .toEqual(expect.arrayContaining(['add to cart', 'place order']));
  expect(stored!.session.viewCount).toBeGreaterThanOrEqual(5);
  expect(intakeStatuses.length).toBeGreaterThan(0);
  expect(intakeStatuses.every((status) => status >= 200 && status < 300)).toBe(true);

  expect(apiCalls.length).toBeGreaterThan(0);
  expect(elsewhere).toEqual([]);
}

test.describe('under a host name no profile knows', () => {
  test('http://shop.test:<port> browses, orders, gets flags and is monitored', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await shopJourney(page, request, `http://shop.test:${WEB_PORT}`, API_URL);
  });
});

test.describe('the web server /api proxy', () => {
  test('answers the api uncompressed, as the api sent it', async ({ request }) => {
    const direct = await request.get(`${API_URL}/departments/chairs/products?limit=48`);
    const proxied = await request.get('/api/departments/chairs/products?limit=48', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(proxied.status()).toBe(200);
    expect(proxied.headers()['content-encoding']).toBeUndefined();
    expect(await proxied.json()).toEqual(await direct.json());
  });
});

/** The whole shop (`npm start`) on its own ports and data folder. */
interface Shop {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  dataDir: string;
}

function startShop(webPort: number, apiPort: number): Shop {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-e2e-ports-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(webPort),
    API_PORT: String(apiPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  // Nothing may point this shop elsewhere: only the ports differ from a plain `npm start`.
  for (const name of [
    'API_URL',
    'CORS_ORIGINS',
    'DATABASE_URL',
    'SHOWROOM_PROFILES_JSON',
    'DEPLOYMENT_PROFILES_FILE',
  ]) {
    delete env[name];
  }
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited, dataDir };
}

test.describe('started with other ports', () => {
  const webUrl = `http://localhost:${OTHER_WEB_PORT}`;
  const apiUrl = `http://localhost:${OTHER_API_PORT}`;
  let shop: Shop | undefined;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const started = startShop(OTHER_WEB_PORT, OTHER_API_PORT);
    shop = started;
    // Healthy once the web server answers and its /api reaches the api.
    await expect
      .poll(
        async () => {
          if (started.child.exitCode !== null) {
            throw new Error(`the shop exited early:\n${started.output()}`);
          }
          return fetch(`${webUrl}/api/health`).then(
            (response) => response.status,
            () => 0,
          );
        },
        { timeout: 170_000 },
      )
      .toBe(200);
  });

  test.afterAll(async () => {
    if (!shop) return;
    if (shop.child.exitCode === null) shop.child.kill('SIGTERM');
    const code = await shop.exited;
    fs.rmSync(shop.dataDir, { recursive: true, force: true });
    expect(code, shop.output()).toBe(0);
  });

  test(`PORT=${OTHER_WEB_PORT} API_PORT=${OTHER_API_PORT}: browses, orders, gets flags and is monitored`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await shopJourney(page, request, webUrl, apiUrl);
  });
});
