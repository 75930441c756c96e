import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { shopperLists, type Shopper } from './shoppers';

const lists = shopperLists;
const IDENTITY_KEYS = [
  'user_id',
  'user_name',
  'user_email',
  'user_team',
  'user_use_discount',
  'user_use_new_checkout_flow',
];

/** A fixed random value in the page, so the 1-in-5 anonymous draw does not decide the test. */
async function fixRandom(page: Page, value: number) {
  await page.addInitScript((fixed) => {
    Math.random = () => fixed;
  }, value);
}

async function startupDone(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-startup', 'done');
}

const storage = (page: Page) =>
  page.evaluate(() => ({ ...localStorage }) as Record<string, string>);
const session = (page: Page) =>
  page.evaluate(() => ({ ...sessionStorage }) as Record<string, string>);

test.describe('start-up sequence in the browser (docs/requirements.md §4)', () => {
  test("R-4.10 R-4.11 R-4.12: a fresh visit stores all six identity keys from today's slice", async ({
    page,
  }) => {
    await page.goto('/');
    await startupDone(page);
    const stored = await storage(page);
    for (const key of IDENTITY_KEYS) expect(stored[key], key).toBeTruthy();

    const today = new Date();
    const day = today.getUTCDay();
    const slice = (list: Shopper[]) => list.slice(day * 50, day * 50 + 50);
    const record = [...slice(lists.standard), ...slice(lists.loyalty)].find(
      (shopper) => shopper.id === stored.user_id,
    );
    expect(record, `user ${stored.user_id} in today's slice (UTC day ${day})`).toBeDefined();
    expect(stored.user_name).toBe(record!.name.toLowerCase().replace(' ', '.'));
    expect(stored.user_email).toBe(record!.email);
    expect(stored.user_team).toBe(record!.team);
    expect(stored.user_use_discount).toBe(String(record!.useDiscount));
    expect(stored.user_use_new_checkout_flow).toBe(String(record!.useNewCheckoutFlow));

    await page.reload();
    await startupDone(page);
    const again = await storage(page);
    for (const key of IDENTITY_KEYS) expect(again[key]).toBe(stored[key]);
  });

  test.describe('the day slice of a browser whose local day is the next one', () => {
    // UTC+14: noon UTC is 02:00 the next day here, so a slice chosen by the local day is wrong.
    test.use({ timezoneId: 'Pacific/Kiritimati' });
    // Sunday 22 November 2026 at noon UTC plus `day` days; random 0.8 picks the loyalty list when
    // the option is on, entry 40 of the slice, and a session that is not anonymous.
    for (const [day, list, query] of [
      [0, 'standard', ''],
      [6, 'loyalty', '?loyalty=true'],
    ] as const) {
      test(`R-4.12 R-4.13: on UTC day ${day} only the drawn entry of that day's slice of the ${list} list is fetched`, async ({
        page,
      }) => {
        await fixRandom(page, 0.8);
        await page.clock.setFixedTime(new Date(Date.UTC(2026, 10, 22 + day, 12)));
        const fetched: string[] = [];
        page.on('request', (request) => {
          const path = new URL(request.url()).pathname;
          const drawn = /^\/shoppers\/(standard|loyalty)\/(\d)\/(\d+)$/.exec(path);
          if (drawn) fetched.push(`${drawn[1]} ${drawn[2]} ${drawn[3]}`);
          // The lists are not in the client build (build-plugins/shopper-lists.ts).
          if (/shoppers/.test(path) && !drawn) fetched.push(path);
        });
        await page.goto(`/${query}`);
        await startupDone(page);
        expect(fetched).toEqual([`${list} ${day} 40`]);
        expect((await storage(page)).user_id).toBe(lists[list][day * 50 + 40]!.id);
      });
    }
  });

  test('R-2.7, R-3.7: ?rumdev=true gives the monitoring SDK the fixed demo user', async ({
    page,
  }) => {
    await page.goto('/?rumdev=true');
    await startupDone(page);
    await expect
      .poll(() => page.evaluate(() => window.DD_RUM?.getUser()))
      .toMatchObject({ id: 'dec0de01', team: 'Dev', useDiscount: null, useNewCheckoutFlow: false });
  });

  test('R-4.14: an isJohnDoe cookie gives the placeholder identity', async ({
    page,
    context,
    baseURL,
  }) => {
    await fixRandom(page, 0.5);
    await context.addCookies([{ name: 'isJohnDoe', value: '1', url: baseURL! }]);
    await page.goto('/');
    await startupDone(page);
    await expect
      .poll(() => page.evaluate(() => window.DD_RUM?.getUser()))
      .toMatchObject({ name: 'John Doe', email: 'john.doe@example.com' });
  });

  test('R-4.14: without the cookie the sample identity is the monitoring user', async ({
    page,
  }) => {
    await fixRandom(page, 0.5);
    await page.goto('/');
    await startupDone(page);
    const stored = await storage(page);
    await expect
      .poll(() => page.evaluate(() => window.DD_RUM?.getUser()))
      .toMatchObject({ id: stored.user_id, email: stored.user_email });
  });

  test('R-4.14: a draw under 1 in 5 clears the monitoring user (anonymous session)', async ({
    page,
  }) => {
    await fixRandom(page, 0.1);
    await page.goto('/');
    await startupDone(page);
    await expect.poll(() => page.evaluate(() => window.DD_RUM !== undefined)).toBe(true);
    expect(await page.evaluate(() => window.DD_RUM?.getUser())).toEqual({});
  });

  test('R-4.1–R-4.8: each query switch leaves the stated storage value', async ({ page }) => {
    await page.goto(
      '/?new_checkout_flow=TRUE&checkout_country_selector_first=true&loyalty=true&payments=True&loaf=true' +
        '&ffe-buy-now-button=true&ffe-buy-now-button-error=true&ffe-new-product-photos=true',
    );
    await startupDone(page);
    expect(await storage(page)).toMatchObject({
      newCheckoutFlow: 'true',
      checkoutCountrySelector: 'true',
      showLoyaltyProgram: 'true',
      showPayments: 'true',
      showLoAF: 'true',
    });
    const demo = await session(page);
    expect(JSON.parse(demo.buyNowButton ?? 'null')).toEqual({ enabled: true, shouldError: true });
    expect(JSON.parse(demo.newProductPhotos ?? 'null')).toEqual({ enabled: true });

    await page.goto(
      '/department/chairs?new_checkout_flow=false&checkout_country_selector_first=false&loyalty=false' +
        '&payments=false&loaf=FALSE&ffe-buy-now-button=false&ffe-new-product-photos=false',
    );
    await startupDone(page);
    expect(await storage(page)).toMatchObject({
      newCheckoutFlow: 'true',
      checkoutCountrySelector: 'false',
      showLoyaltyProgram: 'false',
      showPayments: 'false',
      showLoAF: 'false',
    });
    const after = await session(page);
    expect(JSON.parse(after.buyNowButton ?? 'null')).toMatchObject({ enabled: false });
    expect(JSON.parse(after.newProductPhotos ?? 'null')).toEqual({ enabled: false });
  });

  test('R-4.3: checkout_country_selector_first is forced off on /cart', async ({ page }) => {
    await page.goto('/?checkout_country_selector_first=true');
    await startupDone(page);
    expect((await storage(page)).checkoutCountrySelector).toBe('true');
    await page.goto('/cart?checkout_country_selector_first=true');
    await startupDone(page);
    expect((await storage(page)).checkoutCountrySelector).toBe('false');
  });

  test('R-9: version, isBeta and errorSHA are stored; the profile choice is persisted', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/');
    await startupDone(page);
    const stored = await storage(page);
    expect(stored.errorSHA).toMatch(/^[0-9a-f]{8}$/);
    expect(['true', 'false']).toContain(stored.isBeta);
    expect(stored.rum_config_key).toBe('local');
    expect(stored.rum_config_host).toBe(new URL(baseURL!).host);
  });

  test('R-2.2: /scenarios in a fresh browser writes no identity key', async ({ page }) => {
    await page.goto('/scenarios');
    await expect(page.getByRole('heading', { level: 1, name: 'Scenarios' })).toBeVisible();
    const stored = await storage(page);
    for (const key of IDENTITY_KEYS) expect(stored[key]).toBeUndefined();
    expect(await page.evaluate(() => window.DD_RUM)).toBeUndefined();
  });

  test('R-1.1: with webview present the monitoring SDK is not started', async ({ page }) => {
    await page.goto('/?webview=true');
    await startupDone(page);
    expect((await storage(page)).user_id).toBeTruthy();
    expect(await page.evaluate(() => window.DD_RUM)).toBeUndefined();
  });

  test('R-8: a blocked monitoring chunk shows the ad-blocker alert and the shop still works', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/ERR_BLOCKED_BY_CLIENT/);
    await page.route(/datadog-rum/, (route) => route.abort('blockedbyclient'));
    const alert = page.waitForEvent('dialog');
    await page.goto('/department/tables');
    const dialog = await alert;
    expect(dialog.message()).toBe('Please disable your adblocker and refresh the page.');
    await dialog.dismiss();
    await expect(page.getByTestId('product-card').first()).toBeVisible();
  });
});
