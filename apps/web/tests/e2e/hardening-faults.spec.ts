import { createHash } from 'node:crypto';
import type { Page, Route } from '@playwright/test';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import { expect, test } from './fixtures';
import {
  drawWithoutAnonymity,
  hidePage,
  inspectSession,
  rumSessionId,
  withSecondShop,
} from './monitoring-helpers';
import { startupDone } from './shop-helpers';

// The faults requirement (docs/requirements.md; README "Configuration", "Faults"): the flag
// service slow (10 s) or down → pages render on defaults and stay interactive; the intake down →
// the shop keeps working and the monitoring data arrives once the intake is back. The faults are
// made in the browser's network (page.route) on this file's own api and web server.

// This file's ports: + 45 and + 46 (other specs use + 7 … + 26).
const API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 45;
const WEB_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 46;
const WEB = `http://127.0.0.1:${WEB_PORT}`;
const API = `http://127.0.0.1:${API_PORT}`;
// One api and web server for the file: its tests run one after the other in one worker.
test.describe.configure({ mode: 'default' });
withSecondShop(API_PORT, WEB_PORT);

/**
 * The page is interactive: hydrated, and the shop's session is open (the navbar's cart count is
 * known). Start-up itself may still wait for the flag provider (R-4.18, up to 10 s in demo mode).
 */
async function shopReady(page: Page): Promise<void> {
  await expect(page.getByTestId('cart-count')).toHaveAttribute('data-loaded', 'true');
}

/** The flag provider's request (the `local` profile's flagsUrl, README "Deployment profiles"). */
const PRECOMPUTE = '**/api/flags/precompute-assignments*';
/** The monitoring SDK's batches (the `local` profile's intakeUrl). */
const INTAKE = '**/api/intake?**';
const PRODUCT = '/department/chairs/product/13';
/** The shipped default of `home_hero_banner` (apps/web/app/components/home-hero.tsx). */
const DEFAULT_HERO_TITLE = 'Furniture for every room';
/** What the web's /api proxy answers when the service behind it is down (README). */
const DOWN = {
  status: 502,
  contentType: 'application/json',
  body: JSON.stringify({
    error: { code: 'API_UNREACHABLE', message: 'The shop api could not be reached' },
  }),
};

const figures: string[] = [];
test.afterAll(() => {
  if (figures.length > 0) console.log(`faults survived:\n  ${figures.join('\n  ')}`);
});

/** Adds the product to the cart from its page; answers the milliseconds from `since`. */
async function addToCartWorks(page: Page, since: number): Promise<number> {
  const detail = page.getByTestId('product-detail');
  await detail.getByTestId('add-to-cart').click();
  await expect(detail.getByTestId('add-to-cart-result')).toContainText('Added to cart');
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await expect(page.getByTestId('error-modal')).not.toBeVisible();
  return Date.now() - since;
}

test.describe('the flag service slow or down', () => {
  test('flag service 10 s slow: the page renders on defaults and add to cart works before it answers', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const FLAG_DELAY_MS = 10_000;
    const flagRequests: { startedAt: number; answered: boolean }[] = [];
    await page.route(PRECOMPUTE, async (route) => {
      const seen = { startedAt: Date.now(), answered: false };
      flagRequests.push(seen);
      // The fault itself: the flag service takes 10 s to answer.
      await new Promise((resolve) => setTimeout(resolve, FLAG_DELAY_MS));
      await route.continue().catch(() => undefined); // the page may be gone by then
      seen.answered = true;
    });
    const started = Date.now();
    await page.goto(`${WEB}/`);
    await shopReady(page);
    await expect(page.getByTestId('home-hero').locator('h1')).toHaveText(DEFAULT_HERO_TITLE);
    const productLoad = Date.now();
    await page.goto(`${WEB}${PRODUCT}`);
    await shopReady(page);
    // Still on defaults: the provider has no answer yet.
    await expect(page.locator('html')).not.toHaveAttribute('data-flags', /./);
    const addedAfterMs = await addToCartWorks(page, productLoad);
    // …while the product page's flag request was still waiting for its answer.
    expect(
      flagRequests.filter((seen) => seen.startedAt >= productLoad && !seen.answered),
      'a flag request of the product page still pending',
    ).toHaveLength(1);
    // Once the slow answer comes, the provider is ready: nothing got stuck.
    await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready', { timeout: 20_000 });
    figures.push(
      `flag service ${FLAG_DELAY_MS / 1000} s slow: home and product page on defaults; add to ` +
        `cart done ${addedAfterMs} ms after the product page's load, its flag request pending; ` +
        `flags ready ${Date.now() - started} ms after the first load`,
    );
  });

  for (const [fault, answer] of [
    ['unreachable', (route: Route) => route.abort('connectionrefused')],
    ['answering 503', (route: Route) => route.fulfill({ ...DOWN, status: 503 })],
  ] as const) {
    test(`flag service ${fault}: the page renders on defaults and stays interactive`, async ({
      page,
      consoleWatch,
    }) => {
      // The provider's failure as the spec words it, and the browser's own line.
      consoleWatch.allow(
        /Failed to initialize feature flags provider:|Failed to fetch flag configuration|Failed to load resource/,
      );
      let requests = 0;
      await page.route(PRECOMPUTE, async (route) => {
        requests += 1;
        await answer(route);
      });
      const started = Date.now();
      await page.goto(`${WEB}/`);
      await startupDone(page);
      await expect(page.getByTestId('home-hero').locator('h1')).toHaveText(DEFAULT_HERO_TITLE);
      await page.goto(`${WEB}${PRODUCT}`);
      await startupDone(page);
      const addedAfterMs = await addToCartWorks(page, started);
      await page.getByTestId('cart-link').click();
      await expect(page).toHaveURL(/\/cart$/);
      await expect(page.getByTestId('error-modal')).not.toBeVisible();
      expect(requests).toBeGreaterThan(0);
      figures.push(
        `flag service ${fault}: ${requests} flag requests failed; pages on defaults, add to cart ` +
          `done ${addedAfterMs} ms after the first load`,
      );
    });
  }
});

test.describe('the intake down', () => {
  test('intake unreachable: the shop keeps working', async ({ page, consoleWatch }) => {
    consoleWatch.allow(/Failed to load resource/);
    let refused = 0;
    await page.route(INTAKE, async (route) => {
      refused += 1;
      await route.abort('connectionrefused');
    });
    await drawWithoutAnonymity(page);
    const started = Date.now();
    await page.goto(`${WEB}${PRODUCT}`);
    await startupDone(page);
    await rumSessionId(page);
    const addedAfterMs = await addToCartWorks(page, started);
    await page.getByTestId('cart-link').click();
    await expect(page).toHaveURL(/\/cart$/);
    // The navigation flushed the monitoring batch into the refused intake.
    await expect.poll(() => refused).toBeGreaterThan(0);
    await expect(page.getByTestId('error-modal')).not.toBeVisible();
    figures.push(
      `intake unreachable: ${refused} intake requests refused; add to cart done ${addedAfterMs} ms ` +
        `after the load, cart page shown`,
    );
  });

  test('intake answering 502: the shop keeps working and the data arrives once it is back', async ({
    page,
    request,
    consoleWatch,
  }) => {
    test.setTimeout(150_000);
    consoleWatch.allow(/Failed to load resource/);
    let down = true;
    // Each batch's body, by hash: the SDK sends a batch it keeps for a retry byte for byte again.
    const failedBatches = new Set<string>();
    const retriedBatches = new Set<string>();
    let failed = 0;
    await page.route(INTAKE, async (route) => {
      const body = route.request().postDataBuffer() ?? Buffer.alloc(0);
      const hash = createHash('sha256').update(body).digest('hex');
      if (down) {
        failed += 1;
        failedBatches.add(hash);
        await route.fulfill(DOWN);
        return;
      }
      if (failedBatches.has(hash)) retriedBatches.add(hash);
      await route.continue();
    });
    await drawWithoutAnonymity(page);
    const started = Date.now();
    await page.goto(`${WEB}${PRODUCT}`);
    await startupDone(page);
    const sessionId = await rumSessionId(page);
    const addedAfterMs = await addToCartWorks(page, started);

    // The SDK sends a batch with fetch, and keeps it for a retry on a 5xx, when the batch is full
    // 50 messages) or after 30 s; a page hide or leave sends with sendBeacon, which it
    // never retries. Fill the batch with custom actions so it goes out now, with fetch.
    await expect
      .poll(
        async () => {
          await page.evaluate(() => {
            for (let i = 0; i < 50; i++) window.DD_RUM?.addAction('outage filler', { i });
          });
          return failed;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    // The shop kept working while the intake was down.
    await page.getByTestId('cart-link').click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await expect(page.getByTestId('error-modal')).not.toBeVisible();
    const addToCartInApi = async () =>
      (await inspectSession(request, sessionId, API))?.timeline.filter(
        (entry) => entry.kind === 'action' && entry.title === MONITORING_ACTIONS.addToCart,
      ).length ?? 0;
    expect(await addToCartInApi()).toBe(0);

    // The intake is back: the SDK's retry (backing off from 1 s, doubling up to 60 s)
    // sends the batches it kept in memory again.
    down = false;
    const back = Date.now();
    await expect.poll(() => retriedBatches.size, { timeout: 90_000 }).toBeGreaterThan(0);
    const retriedAfterMs = Date.now() - back;
    // And the add to cart made during the outage reaches the api (what is still in the SDK's
    // batch goes out on the next flush: hiding the page is one).
    await expect
      .poll(
        async () => {
          await hidePage(page);
          return addToCartInApi();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    figures.push(
      `intake answering 502: ${failed} batch requests failed (${failedBatches.size} batches); ` +
        `add to cart done ${addedAfterMs} ms after the load; ${retriedBatches.size} failed ` +
        `batches delivered by the SDK's retry ${retriedAfterMs} ms after the intake came back; ` +
        `the add to cart in the api ${Date.now() - back} ms after it`,
    );
  });
});
