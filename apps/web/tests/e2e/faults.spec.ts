import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  FAULT_ALLOCATION_KEY,
  FAULT_RUM_ERRORS,
  type FaultFlagKey,
} from '@showroom/contracts/faults';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import { PRIORITY_IMAGE_WAIT_MS } from '../../app/lib/scripts-after-paint.server';
import { expect, test } from './fixtures';
import {
  captureSentRumEvents,
  drawWithoutAnonymity,
  hidePage,
  inspectSession,
  rumSessionId,
  startSecondApi,
  startSecondWeb,
  type InspectedEntry,
  type SecondApi,
  type SecondServer,
} from './monitoring-helpers';
import {
  CARDS,
  confirmedOrderId,
  fillAddress,
  fillCard,
  scriptStartAndImageEnd,
  startupDone,
} from './shop-helpers';
import { shopperLists, storeShopperIdentity, type Shopper } from './shoppers';

// Fault flags (docs/decisions/010-fault-flags.md): a presenter aims a failure at a shopper from
// the flag service; the api acts on it for that shopper's requests and the browser's monitoring
// reports what the shopper sees. These tests run their own api (its flags with the payment
// fault declining every order) and web server, and aim each fault at one test shopper with a
// rule, so no other test — and no other shopper — is hit.

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
// Beside this run's api; other specs use + 7, + 11 and + 12.
const FAULT_API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 21;
const FAULT_WEB_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 22;

const PRODUCT = '/department/chairs/product/13';

/**
 * Shoppers of the loyalty list from a day slice other than today's: no random identity draw of
 * today can give another test one of them.
 */
function testShoppers(): Shopper[] {
  const list = shopperLists.loyalty;
  const slice = Math.floor(list.length / 7);
  const day = (new Date().getUTCDay() + 3) % 7;
  return list.slice(day * slice, day * slice + 5);
}
const [BROKEN_IMAGES, RECOMMENDATIONS, DECLINED, BYSTANDER, SLOW] = testShoppers() as [
  Shopper,
  Shopper,
  Shopper,
  Shopper,
  Shopper,
];

/** The latencies of this file's flags (shorter than the shipped examples). */
const PRODUCT_LATENCY_MS = 1000;
const IMAGE_DELAY_MS = 1500;

let api: SecondApi;
let web: SecondServer;
let flagsDir: string;

/**
 * The shop's flag files, with the payment fault declining every order instead of half and
 * shorter latencies.
 */
function writeFlags(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-fault-flags-'));
  const source = path.join(REPO_ROOT, 'apps/api/flags');
  for (const file of fs.readdirSync(source).filter((name) => name.endsWith('.json'))) {
    const ufc = JSON.parse(fs.readFileSync(path.join(source, file), 'utf8')) as {
      flags: Record<string, { variations: Record<string, { value: unknown }> }>;
    };
    const served: Partial<Record<FaultFlagKey, number>> = {
      fault_payment_decline_percent: 100,
      fault_product_api_latency_ms: PRODUCT_LATENCY_MS,
      fault_slow_product_images_ms: IMAGE_DELAY_MS,
    };
    for (const [key, value] of Object.entries(served)) {
      const fault = ufc.flags[key]?.variations.fault;
      if (fault) fault.value = value;
    }
    fs.writeFileSync(path.join(dir, file), JSON.stringify(ufc));
  }
  return dir;
}

// One api and web server for the file: its tests run one after the other in one worker.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  flagsDir = writeFlags();
  api = await startSecondApi(FAULT_API_PORT, `http://127.0.0.1:${FAULT_WEB_PORT}`, {
    flagsPath: flagsDir,
  });
  web = await startSecondWeb(FAULT_WEB_PORT, api.url);
});

test.afterAll(async () => {
  await web?.stop();
  await api?.stop();
  fs.rmSync(flagsDir, { recursive: true, force: true });
});

async function operate(method: 'PATCH' | 'PUT', url: string, body: object): Promise<void> {
  const response = await fetch(`${api.url}${url}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-operator': 'faults e2e' },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${url}`).toBe(200);
}

/** Aims a fault at one shopper (a rule on its `fault-on` allocation) and turns it on. */
async function aimFault(key: FaultFlagKey, shopper: Shopper): Promise<void> {
  await operate('PUT', `/flags/${key}/rules`, {
    allocationKey: FAULT_ALLOCATION_KEY,
    rules: [{ conditions: [{ attribute: 'user_id', operator: 'ONE_OF', value: [shopper.id] }] }],
  });
  await operate('PATCH', `/flags/${key}`, { enabled: true });
}

async function clearFault(key: FaultFlagKey): Promise<void> {
  await operate('PATCH', `/flags/${key}`, { enabled: false });
  await operate('PUT', `/flags/${key}/rules`, { allocationKey: FAULT_ALLOCATION_KEY, rules: [] });
}

/**
 * The page shops as `shopper`: its identity is stored before any script runs and its
 * api session is bound to it before the first page, so the server-rendered page already is
 * this shopper's. Monitoring is never anonymous.
 */
async function shopAs(page: Page, shopper: Shopper): Promise<void> {
  await drawWithoutAnonymity(page);
  await storeShopperIdentity(page, shopper);
  const bound = await page.request.put(`${web.url}/api/session/shopper`, {
    data: { shopperId: shopper.id },
  });
  expect(bound.status()).toBe(200);
}

/**
 * The session's RUM errors with `message`, once `stored` holds for them: hides the page (the
 * SDK sends what it holds) and reads the intake until then. An error may be reported a moment
 * after the SDK starts (an image that failed while the page loaded), so hiding is repeated.
 */
async function storedErrors(
  page: Page,
  sessionId: string,
  message: string,
  stored: (errors: InspectedEntry[]) => boolean,
): Promise<InspectedEntry[]> {
  let errors: InspectedEntry[] = [];
  await expect
    .poll(
      async () => {
        await hidePage(page);
        const session = await inspectSession(page.request, sessionId, api.url);
        errors = (session?.timeline ?? []).filter(
          (entry) => entry.kind === 'error' && entry.title === message,
        );
        return stored(errors);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return errors;
}

test.describe('fault flags aimed at one shopper', () => {
  test('broken product images: the photos 404 and each failed image is a RUM error', async ({
    page,
    browser,
    consoleWatch,
  }) => {
    consoleWatch.allow(/status of 404/);
    await aimFault('fault_broken_product_images', BROKEN_IMAGES);
    try {
      await shopAs(page, BROKEN_IMAGES);
      await page.goto(`${web.url}${PRODUCT}`);
      const main = page.locator('.gallery__main img');
      await expect(main).toHaveAttribute('src', /^\/img\/missing\/products\/13\//);
      await expect
        .poll(() =>
          main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 0),
        )
        .toBe(true);
      const mainUrl = await main.evaluate((img: HTMLImageElement) => img.currentSrc);
      const sessionId = await rumSessionId(page);

      // One error per failed image URL, each naming its URL: the main photo's among them.
      const errors = await storedErrors(
        page,
        sessionId,
        FAULT_RUM_ERRORS.productImageFailed,
        (found) => found.some((error) => error.detail.image_url === mainUrl),
      );
      const urls = errors.map((error) => String(error.detail.image_url));
      expect(new Set(urls).size).toBe(urls.length);
      for (const url of urls) expect(new URL(url).pathname).toMatch(/^\/img\/missing\//);

      // Another shopper, at the same time, sees the photos.
      const context = await browser.newContext();
      try {
        const other = await context.newPage();
        await shopAs(other, BYSTANDER);
        await other.goto(`${web.url}${PRODUCT}`);
        const photo = other.locator('.gallery__main img');
        await expect(photo).toHaveAttribute('src', /^\/img\/products\/13\//);
        await expect
          .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBeGreaterThan(0);
      } finally {
        await context.close();
      }
    } finally {
      await clearFault('fault_broken_product_images');
    }
  });

  test('recommendations failure: the section says so and one RUM error is stored', async ({
    page,
  }) => {
    await aimFault('fault_recommendations_error', RECOMMENDATIONS);
    try {
      await shopAs(page, RECOMMENDATIONS);
      await page.goto(`${web.url}${PRODUCT}`);
      await expect(page.getByTestId('recommendations-unavailable')).toHaveText(
        'Recommendations are not available right now.',
      );
      await expect(page.getByTestId('product-name')).toBeVisible();
      await startupDone(page);
      const sessionId = await rumSessionId(page);
      const errors = await storedErrors(
        page,
        sessionId,
        FAULT_RUM_ERRORS.recommendationsFailed,
        (found) => found.length > 0,
      );
      expect(errors).toHaveLength(1);
    } finally {
      await clearFault('fault_recommendations_error');
    }
  });

  test('payment decline: the order is declined with one RUM error; without the fault it goes through', async ({
    page,
    consoleWatch,
  }) => {
    test.setTimeout(60_000);
    consoleWatch.allow(/status of 402/);
    await aimFault('fault_payment_decline_percent', DECLINED);
    let cleared = false;
    try {
      await shopAs(page, DECLINED);
      await page.goto(`${web.url}${PRODUCT}?new_checkout_flow=true`);
      await startupDone(page);
      const detail = page.getByTestId('product-detail');
      await detail.getByTestId('add-to-cart').click();
      await expect(detail.getByTestId('add-to-cart-result')).toContainText('Added to cart');
      await page.goto(`${web.url}/checkout`);
      await fillAddress(page);
      // A card the gateway accepts: only the fault declines it.
      await fillCard(page, CARDS.succeeds);
      await page.getByTestId('place-order').click();
      await expect(page.getByTestId('checkout-error')).toHaveText(
        'Your card was declined. Try another card.',
      );
      await expect(page).toHaveURL(/\/checkout$/);
      const orders = await page.request.get(`${web.url}/api/orders`);
      expect(((await orders.json()) as { orders: unknown[] }).orders).toEqual([]);

      // The presenter turns the fault off: the same checkout now places the order.
      await clearFault('fault_payment_decline_percent');
      cleared = true;
      await page.getByTestId('place-order').click();
      await confirmedOrderId(page);
      const sessionId = await rumSessionId(page);

      // The place order action comes with the confirmation: once it is stored, so is the error.
      await expect
        .poll(
          async () => {
            await hidePage(page);
            const session = await inspectSession(page.request, sessionId, api.url);
            return (session?.timeline ?? []).filter(
              (entry) => entry.kind === 'action' && entry.title === MONITORING_ACTIONS.placeOrder,
            ).length;
          },
          { timeout: 20_000 },
        )
        .toBe(1);
      const declined = await storedErrors(
        page,
        sessionId,
        FAULT_RUM_ERRORS.paymentDeclined,
        (found) => found.length > 0,
      );
      expect(declined).toHaveLength(1);
      expect(declined[0]?.detail).toMatchObject({ code: 'CARD_DECLINED', flow: 'single-page' });
    } finally {
      if (!cleared) await clearFault('fault_payment_decline_percent');
    }
  });

  test('slow product api and slow images: the document and the photos are late, as RUM shows', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await aimFault('fault_product_api_latency_ms', SLOW);
    await aimFault('fault_slow_product_images_ms', SLOW);
    try {
      await shopAs(page, SLOW);
      const sent = captureSentRumEvents(page);
      await page.goto(`${web.url}${PRODUCT}`);
      const main = page.locator('.gallery__main img');
      await expect(main).toHaveAttribute('src', /^\/img-slow\/1500\/products\/13\//);
      // The server rendered the page after the product answer, which came a second late.
      const firstByte = await page.evaluate(
        () =>
          (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
            .responseStart,
      );
      expect(firstByte).toBeGreaterThanOrEqual(PRODUCT_LATENCY_MS);
      await expect
        .poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      await startupDone(page);
      // The scripts wait for the largest image at most PRIORITY_IMAGE_WAIT_MS, not for the slow
      // photo (decision 022).
      const { firstScriptStart, imageEnd } = await scriptStartAndImageEnd(
        page,
        /\/img-slow\/1500\/products\/13\/std-0-/,
      );
      expect(IMAGE_DELAY_MS).toBeGreaterThan(PRIORITY_IMAGE_WAIT_MS);
      expect(Number.isFinite(firstScriptStart)).toBe(true);
      expect(firstScriptStart).toBeLessThan(imageEnd);

      // RUM: the view's first byte and each slow photo's resource carry the delays.
      await expect
        .poll(
          async () => {
            await hidePage(page);
            const events = sent as unknown as SentEvent[];
            const view = events.find((event) => event.type === 'view' && event.view?.first_byte);
            const photos = events.filter(
              (event) =>
                event.type === 'resource' && event.resource?.url?.includes('/img-slow/1500/'),
            );
            return {
              firstByteMs: (view?.view?.first_byte ?? 0) / 1e6 >= PRODUCT_LATENCY_MS,
              slowPhotos:
                photos.length > 0 &&
                photos.every((photo) => (photo.resource?.duration ?? 0) / 1e6 >= IMAGE_DELAY_MS),
            };
          },
          { timeout: 20_000 },
        )
        .toEqual({ firstByteMs: true, slowPhotos: true });
    } finally {
      await clearFault('fault_product_api_latency_ms');
      await clearFault('fault_slow_product_images_ms');
    }
  });
});

/** The fields of a sent RUM event this file reads (durations and times in nanoseconds). */
interface SentEvent {
  type: string;
  view?: { first_byte?: number };
  resource?: { url?: string; duration?: number };
}
