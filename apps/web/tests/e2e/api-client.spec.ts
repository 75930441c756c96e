import type { Page, Request, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { productPath, startupDone } from './shop-helpers';

// The browser api client's retry policy: one retry for a read, none for a write.

const SIDE_TABLE = { id: 3, department: 'tables' } as const;

/** Api calls the page made (fetches, not documents) whose path ends as given. */
function isApiCall(request: Request, method: string, pathEnd: string): boolean {
  return (
    request.resourceType() === 'fetch' &&
    request.method() === method &&
    new URL(request.url()).pathname.endsWith(pathEnd)
  );
}

/**
 * Answers `count` matching api calls with a 503 in the api's error envelope, then lets the
 * rest through; answers the number of matching calls seen so far.
 */
async function failFirst(page: Page, method: string, pathEnd: string, count: number) {
  let seen = 0;
  await page.route(
    (url) => url.pathname.endsWith(pathEnd),
    async (route: Route) => {
      if (!isApiCall(route.request(), method, pathEnd)) return route.fallback();
      seen += 1;
      if (seen > count) return route.fallback();
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Service Unavailable' } }),
      });
    },
  );
  return () => seen;
}

test.describe('the browser api client', () => {
  test('retries a GET once after a 503 and shows the answer', async ({ page, consoleWatch }) => {
    consoleWatch.allow(/status of 503/);
    const calls = await failFirst(page, 'GET', '/cart', 1);
    await page.goto('/cart');
    await startupDone(page);
    await expect(page.getByTestId('cart-empty')).toBeVisible();
    expect(calls()).toBe(2);
    await expect(page.getByTestId('error-modal')).not.toBeVisible();
  });

  test('a GET that fails twice is not tried a third time and reaches the error modal', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/status of 503/);
    const calls = await failFirst(page, 'GET', '/cart', 10);
    await page.goto('/cart');
    await startupDone(page);
    await expect(page.getByTestId('error-modal')).toBeVisible();
    await expect(page.getByTestId('error-modal')).toContainText('Something went wrong on our side');
    expect(calls()).toBe(2);
  });

  test('never retries a POST', async ({ page, consoleWatch }) => {
    consoleWatch.allow(/status of 503/);
    const calls = await failFirst(page, 'POST', '/cart/items', 10);
    await page.goto(productPath(SIDE_TABLE.id, SIDE_TABLE.department, 'standard'));
    await startupDone(page);
    const detail = page.getByTestId('product-detail');
    await detail.getByTestId('add-to-cart').click();
    await expect(detail.getByTestId('add-to-cart-error')).toBeVisible();
    expect(calls()).toBe(1);
    // The cart is unchanged: nothing reached the api.
    await page.goto('/cart');
    await expect(page.getByTestId('cart-empty')).toBeVisible();
  });
});
