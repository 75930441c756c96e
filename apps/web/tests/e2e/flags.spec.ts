import type { Browser, Page } from '@playwright/test';
import { WAITING_PRELOAD_REL } from '../../app/lib/scripts-after-paint.server';
import { expect, test } from './fixtures';
import { allShoppers, storeShopperIdentity, type Shopper } from './shoppers';

const API = `http://localhost:${process.env.E2E_API_PORT ?? 3101}`;
const shoppers = allShoppers;
const optedIn = shoppers.find((s) => s.useNewCheckoutFlow && s.team !== 'marketing')!;
const optedOutCandidates = shoppers.filter((s) => !s.useNewCheckoutFlow && s.team !== 'marketing');
const discounted = shoppers.find((s) => s.useDiscount === true)!;
// The design and product teams get the `similar-materials` recommendations, not the default.
const designer = shoppers.find((s) => s.team === 'design' || s.team === 'product')!;
const FLAG_CHUNK = /\/assets\/flag-provider-[^/]*\.js$/;

const FEATURES = {
  newCheckoutFlow: 'new_checkout_flow',
  checkoutCountrySelector: 'checkout_country_selector_first',
  showLoyaltyProgram: 'show_loyalty_program',
  showPayments: 'show_payments',
  showLoAF: 'show_loaf',
} as const;

/** Stores a fixed identity before any script runs, and keeps monitoring's anonymous draw out. */
async function asShopper(page: Page, shopper: Shopper) {
  await page.addInitScript(() => {
    Math.random = () => 0.5;
  });
  await storeShopperIdentity(page, shopper);
}

/** What the flag service assigns, asked exactly as the provider asks (attributes stringified). */
async function serverAssignments(shopper: Shopper) {
  const attributes: Record<string, string> = {
    targetingKey: shopper.id,
    user_id: shopper.id,
    user_name: shopper.name.toLowerCase().replace(' ', '.'),
    user_email: shopper.email,
    browser: 'Chrome',
    team: shopper.team,
    useDiscount: JSON.stringify(shopper.useDiscount),
    useNewCheckoutFlow: JSON.stringify(shopper.useNewCheckoutFlow),
  };
  const response = await fetch(`${API}/flags/precompute-assignments`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({
      data: {
        type: 'precompute-assignments-request',
        attributes: {
          env: { dd_env: 'dev' },
          subject: { targeting_key: shopper.id, targeting_attributes: attributes },
        },
      },
    }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    data: { attributes: { flags: Record<string, { variationValue: unknown }> } };
  };
  return body.data.attributes.flags;
}

async function flagValuesOnDemoPage(page: Page) {
  await page.goto('/demo');
  await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready');
  const values: Record<string, string> = {};
  for (const storageKey of Object.keys(FEATURES)) {
    values[storageKey] =
      (await page.getByTestId(`demo-flag-${storageKey}`).getByTestId('flag-value').textContent()) ??
      '';
  }
  return values;
}

async function exposureTotal(flagKey: string): Promise<number> {
  const response = await fetch(`${API}/flags/${flagKey}`);
  const flag = (await response.json()) as { exposures: { total: number } };
  return flag.exposures.total;
}

async function freshPage(browser: Browser, shopper: Shopper) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await asShopper(page, shopper);
  return { context, page };
}

test.describe('feature flags through the official provider (issue 4)', () => {
  test('the provider is READY and shows the assignment the server makes, for two shoppers', async ({
    page,
    browser,
  }) => {
    // A second shopper outside the new-checkout rollout, so the two pages must differ.
    let optedOut: Shopper | undefined;
    for (const candidate of optedOutCandidates) {
      const assigned = await serverAssignments(candidate);
      if (assigned.new_checkout_flow?.variationValue !== true) {
        optedOut = candidate;
        break;
      }
    }
    if (!optedOut) throw new Error('every opted-out shopper is in the rollout');
    await asShopper(page, optedIn);
    const first = await flagValuesOnDemoPage(page);
    const second = await freshPage(browser, optedOut);
    const other = await flagValuesOnDemoPage(second.page);
    await second.context.close();

    for (const [shopper, shown] of [
      [optedIn, first],
      [optedOut, other],
    ] as const) {
      const assigned = await serverAssignments(shopper);
      for (const [storageKey, flagKey] of Object.entries(FEATURES)) {
        const expected = assigned[flagKey];
        expect(shown[storageKey], `${shopper.id} ${flagKey}`).toBe(
          expected === undefined ? '—' : String(expected.variationValue),
        );
      }
    }
    // Opting in turns the new checkout on; the other shopper is outside it.
    expect(first.newCheckoutFlow).toBe('true');
    expect(other.newCheckoutFlow).not.toBe('true');
  });

  test('exposures the provider logs are stored by the api', async ({ page }) => {
    const before = await exposureTotal('new_checkout_flow');
    await asShopper(page, optedIn);
    await flagValuesOnDemoPage(page);
    // Leaving the page flushes the exposure batch (sendBeacon).
    await page.goto('about:blank');
    await expect
      .poll(() => exposureTotal('new_checkout_flow'), { timeout: 15_000 })
      .toBeGreaterThan(before);
  });

  test('a local-storage override wins over the flag service on /demo', async ({ page }) => {
    await asShopper(page, optedIn);
    await page.goto('/?new_checkout_flow=true&payments=false');
    await expect(page.locator('html')).toHaveAttribute('data-startup', 'done');
    await flagValuesOnDemoPage(page);
    const payments = page.getByTestId('demo-flag-showPayments');
    await expect(payments.getByTestId('override')).toHaveText('false');
    await expect(payments.getByTestId('effective')).toHaveText('false (override)');
  });

  test('with the flag service failing the shop works on defaults and logs the spec error', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/Failed to initialize feature flags provider:|status of 503/);
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.route('**/flags/precompute-assignments**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ errors: [{ detail: 'flag service stopped' }] }),
      }),
    );
    await asShopper(page, optedIn);
    await page.goto('/department/chairs');
    await expect(page.locator('html')).toHaveAttribute('data-flags', 'error');
    expect(
      messages.some((text) => text.startsWith('Failed to initialize feature flags provider:')),
    ).toBe(true);
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await page.getByTestId('product-card').first().locator('.product-card__link').click();
    await expect(page.getByTestId('add-to-cart')).toBeVisible();
    await page.goto('/demo');
    const row = page.getByTestId('demo-flag-newCheckoutFlow');
    await expect(row.getByTestId('effective')).toHaveText('false (default)');
  });
});

test.describe('the flag provider chunk, loaded after hydration (docs/architecture.md "Feature flags")', () => {
  test('a first visit does not preload the OpenFeature code; the flag chunk loads after start-up', async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/department/chairs/product/13')).text();
    // Written inert until the first paint (app/lib/scripts-after-paint.server.ts).
    const preloaded = [
      ...html.matchAll(new RegExp(`<link rel="${WAITING_PRELOAD_REL}" href="([^"]+)"`, 'g')),
    ].map((match) => match[1]!);
    expect(preloaded.length).toBeGreaterThan(0);
    expect(preloaded.filter((href) => FLAG_CHUNK.test(href))).toEqual([]);
    for (const href of preloaded) {
      // An event name only the OpenFeature SDK spells out.
      expect(await (await request.get(href)).text(), href).not.toContain(
        'PROVIDER_CONFIGURATION_CHANGED',
      );
    }
    const flagChunk = page.waitForResponse((response) => FLAG_CHUNK.test(response.url()));
    await asShopper(page, optedIn);
    await page.goto('/department/chairs/product/13');
    expect((await flagChunk).ok()).toBe(true);
    await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready');
  });

  test('flag-driven components render the assignment once the provider is ready', async ({
    page,
  }) => {
    const assigned = await serverAssignments(designer);
    const banner = assigned.home_hero_banner?.variationValue as { title: string } | undefined;
    expect(banner?.title).toBeTruthy();
    expect(assigned.recommendations_strategy?.variationValue).toBe('similar-materials');
    await asShopper(page, designer);
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready');
    await expect(page.getByTestId('home-hero').locator('h1')).toHaveText(banner!.title);
    await page.goto('/department/chairs/product/13');
    // The streamed list, not the fallback React keeps beside it until the swap.
    await expect(page.locator('section.recommendations[data-strategy]')).toHaveAttribute(
      'data-strategy',
      'similar-materials',
    );
  });

  test('when the flag chunk cannot load the shop works on defaults and logs the spec error', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/Failed to initialize feature flags provider:|Failed to load resource/);
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.route(FLAG_CHUNK, (route) => route.abort());
    await asShopper(page, designer);
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-flags', 'error');
    expect(
      messages.some((text) => text.startsWith('Failed to initialize feature flags provider:')),
    ).toBe(true);
    await expect(page.getByTestId('home-hero').locator('h1')).toHaveText(
      'Furniture for every room',
    );
  });
});

test.describe('flag types and error codes at the provider boundary (docs/requirements.md §5, §8)', () => {
  test('types normalise and a missing or mistyped flag answers its error code with the default', async ({
    page,
  }) => {
    await asShopper(page, optedIn);
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready');
    const details = await page.evaluate(() => {
      const client = window.showroomFlags!;
      const pick = (d: { value: unknown; errorCode?: string; variant?: string }) => ({
        type: typeof d.value,
        value: d.value,
        errorCode: d.errorCode ?? null,
      });
      return {
        boolean: pick(client.getBooleanDetails('new_checkout_flow', false)),
        string: pick(client.getStringDetails('recommendations_strategy', 'none')),
        integer: pick(client.getNumberDetails('free_shipping_threshold_cents', -1)),
        json: pick(client.getObjectDetails('home_hero_banner', {})),
        missing: pick(client.getBooleanDetails('no_such_flag', true)),
        mistyped: pick(client.getStringDetails('new_checkout_flow', 'fallback')),
      };
    });
    expect(details.boolean).toEqual({ type: 'boolean', value: true, errorCode: null });
    expect(details.string.type).toBe('string');
    expect(['bestsellers', 'similar-materials', 'price-low']).toContain(details.string.value);
    expect(details.integer.type).toBe('number');
    expect([50000, 25000]).toContain(details.integer.value);
    expect(details.json.type).toBe('object');
    expect(details.json.value).toHaveProperty('title');
    expect(details.missing).toEqual({ type: 'boolean', value: true, errorCode: 'FLAG_NOT_FOUND' });
    expect(details.mistyped).toEqual({
      type: 'string',
      value: 'fallback',
      errorCode: 'TYPE_MISMATCH',
    });
  });
});

test.describe('operating flags from the flags page', () => {
  test.describe.configure({ mode: 'serial' });

  test('turning a flag off reaches a freshly loaded page, and back on', async ({
    page,
    browser,
  }) => {
    const banner = async () => {
      const { context, page: shopperPage } = await freshPage(browser, discounted);
      await shopperPage.goto('/');
      await expect(shopperPage.locator('html')).toHaveAttribute('data-flags', 'ready');
      const visible = await shopperPage.getByTestId('loyalty-banner').isVisible();
      await context.close();
      return visible;
    };
    expect(await banner()).toBe(true);

    await page.goto('/flags');
    const card = page.getByTestId('flag-show_loyalty_program');
    await card.getByRole('button', { name: 'Turn off' }).click();
    await expect(card.getByTestId('flag-status')).toHaveText('Off');
    try {
      expect(await banner()).toBe(false);
    } finally {
      await card.getByRole('button', { name: 'Turn on' }).click();
      await expect(card.getByTestId('flag-status')).toHaveText('On');
    }
    expect(await banner()).toBe(true);
    await expect(page.getByTestId('audit')).toContainText(
      'flags page: disable show_loyalty_program',
    );
  });

  test('an invalid targeting rule is refused with the field named, and nothing changes', async ({
    page,
  }) => {
    await page.goto('/flags');
    const card = page.getByTestId('flag-show_payments');
    const allocation = card.locator('.allocation').first();
    const rulesBefore = await allocation.getByTestId('rules').textContent();
    await allocation.getByRole('combobox').nth(1).selectOption('GT');
    await allocation.getByRole('textbox').fill('not a number');
    await allocation.getByRole('button', { name: 'Set rule' }).click();
    await expect(page.getByTestId('flags-error')).toContainText('show_payments');
    await expect(page.getByTestId('flags-error')).toContainText('value');
    await expect(
      page.getByTestId('flag-show_payments').locator('.allocation').first().getByTestId('rules'),
    ).toHaveText(rulesBefore ?? '');
  });
});
