import type { Request } from '@playwright/test';
import { TRACKING_ROUTE } from '@showroom/contracts/experiments';
import { expect, test } from './fixtures';
import {
  drawWithoutAnonymity,
  inspectSession,
  leavePage,
  rumSessionId,
  type InspectedSession,
} from './monitoring-helpers';
import {
  API_URL,
  CARDS,
  confirmedOrderId,
  fillAddress,
  fillCard,
  startupDone,
} from './shop-helpers';
import { allShoppers, storeShopperIdentity } from './shoppers';

// The `local-ofrep` deployment profile (ship=ofrep): the official OFREP web provider against the
// flag service's OFREP routes instead of Datadog's provider (docs/decisions/016-ofrep.md).
const optedIn = allShoppers.find((s) => s.useNewCheckoutFlow && s.team !== 'marketing')!;
/** Bought here only (no other spec buys this product on the shared test api). */
const SOFA = { id: 36, department: 'sofas' } as const;

async function exposureTotal(flagKey: string): Promise<number> {
  const response = await fetch(`${API_URL}/flags/${flagKey}`);
  return ((await response.json()) as { exposures: { total: number } }).exposures.total;
}

test.describe('the shop on the OFREP web provider (issue 20)', () => {
  test('flags apply, views carry feature_flags, exposures are stored, and track() reaches the flag service', async ({
    page,
    request,
  }) => {
    test.slow(); // a whole visit with an order, then the monitoring flush
    const flagCalls: string[] = [];
    const tracking: Request[] = [];
    page.on('request', (call) => {
      const url = new URL(call.url());
      if (url.pathname.includes('/ofrep/v1/')) flagCalls.push(`ofrep ${url.pathname}`);
      if (url.pathname.endsWith('/flags/precompute-assignments')) flagCalls.push('precompute');
      if (url.pathname === `/api${TRACKING_ROUTE}`) tracking.push(call);
    });
    await drawWithoutAnonymity(page);
    await storeShopperIdentity(page, optedIn);
    const exposuresBefore = await exposureTotal('new_checkout_flow');

    // The flag service's assignment shows on /demo, through OFREP only.
    await page.goto('/demo?ship=ofrep');
    await startupDone(page);
    await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready');
    await expect(page.getByTestId('demo-profile')).toHaveText('local-ofrep');
    await expect(
      page.getByTestId('demo-flag-newCheckoutFlow').getByTestId('flag-value'),
    ).toHaveText('true');
    expect(flagCalls).toContain('ofrep /api/ofrep/v1/evaluate/flags');
    expect(flagCalls).not.toContain('precompute');

    // A purchase: each step is an OpenFeature tracking event the flag service stores.
    await page.goto(`/department/${SOFA.department}/product/${SOFA.id}`);
    await startupDone(page);
    const detail = page.getByTestId('product-detail');
    await detail.getByTestId('add-to-cart').click();
    await expect(detail.getByTestId('add-to-cart-result')).toContainText('Added to cart');
    await page.getByTestId('cart-link').click();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await page.getByRole('link', { name: 'Checkout' }).click();
    await fillAddress(page);
    await fillCard(page, CARDS.succeeds);
    const purchaseTracked = page.waitForResponse(
      (response) =>
        response.url().endsWith(`/api${TRACKING_ROUTE}`) &&
        response.request().postData()?.includes('"purchase"') === true,
    );
    await page.getByTestId('place-order').click();
    const orderId = await confirmedOrderId(page);
    const purchase = await purchaseTracked;
    expect(purchase.status()).toBe(202);
    expect(await purchase.json()).toEqual({ stored: 1 });
    const events = tracking.map(
      (call) => (call.postDataJSON() as { events: Record<string, unknown>[] }).events[0]!,
    );
    expect(events.map((event) => event['name'])).toEqual([
      'add_to_cart',
      'begin_checkout',
      'purchase',
    ]);
    expect(events.every((event) => event['targetingKey'] === optedIn.id)).toBe(true);
    expect(events[2]).toMatchObject({
      currency: 'USD',
      value: expect.any(Number),
      details: { order_id: orderId },
    });

    // Monitoring: every view carries the flags the OFREP provider evaluated (its hook).
    const sessionId = await rumSessionId(page);
    await leavePage(page);
    let stored: InspectedSession | null = null;
    await expect
      .poll(
        async () => {
          stored = await inspectSession(request, sessionId);
          return stored?.timeline.some((entry) => entry.title === 'place order') ?? false;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const views = stored!.timeline.filter((entry) => entry.kind === 'view');
    expect(views.length).toBeGreaterThanOrEqual(4);
    expect(views.some((view) => (view.featureFlags ?? {})['new_checkout_flow'] === 'on')).toBe(
      true,
    );
    // The provider's hook logged the exposure (doLog) and the page sent it on leaving.
    await expect
      .poll(() => exposureTotal('new_checkout_flow'), { timeout: 15_000 })
      .toBeGreaterThan(exposuresBefore);
  });
});
