import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect } from './fixtures';
import { drawWithoutAnonymity, leavePage, rumSessionId } from './monitoring-helpers';
import {
  CARDS,
  confirmedOrderId,
  fillAddress,
  fillCard,
  overrideFeature,
  startupDone,
} from './shop-helpers';

/** Bought by the journey (on the shared test api no other spec buys lighting). */
const LAMP = { id: 53, name: 'Pivot Desk Lamp', department: 'lighting' } as const;

interface FlagAnswer {
  data: { attributes: { flags: Record<string, { variationValue: unknown }> } };
}

/**
 * A shopper's visit on `origin`: flags from the flag service, a department, a product into the
 * cart, an order, and monitoring stored by the api at `apiUrl` (read there directly) — every
 * browser request staying on the page's origin.
 */
export async function shopJourney(
  page: Page,
  request: APIRequestContext,
  origin: string,
  apiUrl: string,
) {
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
