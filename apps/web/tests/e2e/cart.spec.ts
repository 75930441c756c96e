import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  CARDS,
  addToCart,
  apiGet,
  cartCount,
  confirmedOrderId,
  fillAddress,
  fillCard,
  fixRandom,
  price,
  productPath,
  startupDone,
  stockOf,
  type ApiCart,
} from './shop-helpers';
import { shopperLists } from './shoppers';

// Products these tests put in carts (only the buy-now error test buys: product 17).
const SIDE_TABLE = { id: 3, department: 'tables', edition: 'standard' } as const;
const BISTRO_SPECIAL = { id: 12, department: 'tables', edition: 'special' } as const;
const ROCKER_SPECIAL = { id: 24, department: 'chairs', edition: 'special' } as const; // 2 in stock

/** What the page shows for each amount equals what the api computed for this session. */
async function expectTotalsFromApi(page: Page, country: string) {
  const cart = await apiGet<ApiCart>(page, `/cart?country=${country}`);
  const summary = page.getByTestId('order-totals');
  await expect(summary.getByTestId('subtotal')).toHaveText(price(cart.subtotalCents));
  await expect(summary.getByTestId('shipping')).toHaveText(
    cart.shippingCents === 0 ? 'Free' : price(cart.shippingCents),
  );
  await expect(summary.getByTestId('total')).toHaveText(price(cart.totalCents));
  const totals = page.getByTestId('cart-line-total');
  await expect(totals).toHaveText(cart.lines.map((line) => price(line.lineTotalCents)));
  return cart;
}

test.describe('cart', () => {
  test.beforeEach(async ({ page }) => {
    await fixRandom(page);
  });

  test('two products, one a special edition: api totals, quantities, shipping country and the navbar count', async ({
    page,
  }) => {
    test.slow(); // a whole shopping journey, several full page loads
    await page.goto('/');
    await startupDone(page);
    await expect(cartCount(page)).toHaveText('0');

    await addToCart(page, SIDE_TABLE, 2);
    await expect(cartCount(page)).toHaveText('2');
    await addToCart(page, BISTRO_SPECIAL, 1);
    await expect(cartCount(page)).toHaveText('3');

    await page.getByTestId('cart-link').click();
    await expect(page).toHaveURL(/\/cart$/);
    const lines = page.getByTestId('cart-line');
    await expect(lines).toHaveCount(2);
    await expect(lines.filter({ hasText: 'Special edition' })).toHaveCount(1);
    const cart = await expectTotalsFromApi(page, 'US');
    expect(cart.itemCount).toBe(3);
    expect(cart.lines.map((line) => [line.productId, line.edition, line.quantity])).toEqual(
      expect.arrayContaining([
        [3, 'standard', 2],
        [12, 'special', 1],
      ]),
    );
    await expect(page.getByTestId('discount')).toHaveCount(0);

    // Shipping to Japan: the api prices it.
    await page.getByLabel('Shipping to').selectOption('JP');
    const japan = await apiGet<ApiCart>(page, '/cart?country=JP');
    await expect(page.getByTestId('shipping')).toHaveText(
      japan.shippingCents === 0 ? 'Free' : price(japan.shippingCents),
    );
    await expectTotalsFromApi(page, 'JP');

    // One more side table, then remove the special edition.
    const sideTable = lines.filter({ hasNotText: 'Special edition' });
    await sideTable.getByRole('button', { name: /^Increase quantity/ }).click();
    await expect(sideTable.getByRole('spinbutton')).toHaveValue('3');
    await expect(cartCount(page)).toHaveText('4');
    await expectTotalsFromApi(page, 'JP');

    await lines
      .filter({ hasText: 'Special edition' })
      .getByRole('button', { name: /^Remove/ })
      .click();
    await expect(lines).toHaveCount(1);
    await expect(cartCount(page)).toHaveText('3');

    // A typed quantity is sent on Enter.
    await sideTable.getByRole('spinbutton').fill('1');
    await sideTable.getByRole('spinbutton').press('Enter');
    await expect(cartCount(page)).toHaveText('1');
    await expectTotalsFromApi(page, 'JP');

    await sideTable.getByRole('button', { name: /^Remove/ }).click();
    await expect(page.getByTestId('cart-empty')).toContainText('Your cart is empty');
    await expect(cartCount(page)).toHaveText('0');

    // The count survives a reload: it comes from the api session.
    await addToCart(page, SIDE_TABLE, 1);
    await page.reload();
    await expect(cartCount(page)).toHaveText('1');
  });

  test("adding more than the stock shows the api's message and changes nothing", async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/status of 409/);
    await addToCart(page, ROCKER_SPECIAL, 2);
    await expect(cartCount(page)).toHaveText('2');
    const detail = page.getByTestId('product-detail');
    await detail.getByLabel('Quantity').selectOption('1');
    await detail.getByTestId('add-to-cart').click();
    await expect(detail.getByTestId('add-to-cart-error')).toHaveText(
      /Only 2 of ".+" left in stock; your cart already has 2/,
    );
    await expect(cartCount(page)).toHaveText('2');
    expect((await apiGet<ApiCart>(page, '/cart')).itemCount).toBe(2);
  });

  test('a shopper whose record has the discount sees it in the cart', async ({ page }) => {
    const shopper = shopperLists.loyalty.find((candidate) => candidate.useDiscount === true);
    expect(shopper).toBeDefined();
    await page.addInitScript((record) => {
      localStorage.setItem('user_id', record.id);
      localStorage.setItem('user_name', record.name.toLowerCase().replace(' ', '.'));
      localStorage.setItem('user_email', record.email);
      localStorage.setItem('user_team', record.team);
      localStorage.setItem('user_use_discount', 'true');
      localStorage.setItem('user_use_new_checkout_flow', 'false');
    }, shopper!);

    await addToCart(page, SIDE_TABLE, 1);
    await page.getByTestId('cart-link').click();
    const cart = await expectTotalsFromApi(page, 'US');
    expect(cart.discountRate).toBe(0.1);
    expect(cart.discountCents).toBeGreaterThan(0);
    await expect(page.getByTestId('discount')).toHaveText(`−${price(cart.discountCents)}`);
    await expect(page.getByTestId('order-totals')).toContainText('Shopper discount (10%)');
  });

  test('new-product-photos demo mode shows the second photo set', async ({ page }) => {
    await page.goto(`${productPath(3, 'tables', 'standard')}`);
    await startupDone(page);
    const gallery = page.getByTestId('product-detail').getByTestId('gallery');
    await expect(gallery).toHaveAttribute('data-photo-set', 'std');

    await page.goto(`${productPath(3, 'tables', 'standard')}?ffe-new-product-photos=true`);
    await startupDone(page);
    await expect(gallery).toHaveAttribute('data-photo-set', 'new');
    await expect(gallery.locator('.gallery__main img')).toHaveAttribute('src', /\/new-0-/);

    // Session storage keeps the mode for the rest of the visit; special editions keep theirs.
    await page.goto(productPath(5, 'tables', 'standard'));
    await startupDone(page);
    await expect(gallery).toHaveAttribute('data-photo-set', 'new');
    await page.goto(productPath(5, 'tables', 'special'));
    await startupDone(page);
    await expect(gallery).toHaveAttribute('data-photo-set', 'se');
  });
});

test.describe('buy-now demo mode', () => {
  test.beforeEach(async ({ page }) => {
    await fixRandom(page);
  });

  test('?ffe-buy-now-button=true: Buy now goes straight to checkout with exactly that product', async ({
    page,
  }) => {
    await addToCart(page, SIDE_TABLE, 1);
    await page.goto(`${productPath(8, 'tables', 'standard')}?ffe-buy-now-button=true`);
    await startupDone(page);
    const detail = page.getByTestId('product-detail');
    await detail.getByLabel('Quantity').selectOption('2');
    await detail.getByTestId('buy-now').click();

    await expect(page).toHaveURL(/\/checkout$/);
    const lines = page.getByTestId('checkout-line');
    await expect(lines).toHaveCount(1);
    await expect(lines).toContainText('× 2');
    await expect(cartCount(page)).toHaveText('2');
    const cart = await apiGet<ApiCart>(page, '/cart');
    expect(cart.lines.map((line) => [line.productId, line.quantity])).toEqual([[8, 2]]);
  });

  test('with ffe-buy-now-button-error=true the order attempt fails into the error modal; the shop still works', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/status of 500/);
    await page.addInitScript(() => localStorage.setItem('newCheckoutFlow', 'true'));
    await page.goto(
      `${productPath(17, 'chairs', 'standard')}?ffe-buy-now-button=true&ffe-buy-now-button-error=true`,
    );
    await startupDone(page);
    const stock = await stockOf(page.request, 17, 'standard');
    await page.getByTestId('product-detail').getByTestId('buy-now').click();
    await expect(page).toHaveURL(/\/checkout$/);
    await fillAddress(page);
    await fillCard(page, CARDS.succeeds);

    const orderRequest = page.waitForRequest(
      (request) => request.url().endsWith('/checkout/orders') && request.method() === 'POST',
    );
    // Record what reaches browser monitoring.
    await page.evaluate(() => {
      const rum = window.DD_RUM;
      if (!rum) throw new Error('browser monitoring is not running');
      const reported: string[] = [];
      (window as unknown as { reportedErrors: string[] }).reportedErrors = reported;
      const addError = rum.addError.bind(rum);
      rum.addError = (error: unknown, context?: object) => {
        reported.push(error instanceof Error ? error.message : String(error));
        addError(error, context);
      };
    });
    await page.getByTestId('place-order').click();
    expect((await orderRequest).headers()['x-demo-error']).toBe('buy-now');
    const modal = page.getByTestId('error-modal');
    await expect(modal).toBeVisible();
    await expect(modal).toContainText('Buy now failed');
    // Reported to monitoring once, as an Error.
    expect(
      await page.evaluate(() => (window as unknown as { reportedErrors: string[] }).reportedErrors),
    ).toEqual(['Buy now failed: the order could not be placed']);

    // Nothing was bought.
    expect((await apiGet<{ orders: unknown[] }>(page, '/orders')).orders).toEqual([]);
    expect(await stockOf(page.request, 17, 'standard')).toBe(stock);

    // The rest of the shop works: close the modal, check out the same cart the ordinary way.
    await modal.getByRole('button', { name: 'Close' }).click();
    await expect(modal).toBeHidden();
    await page.getByTestId('cart-link').click();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await page.getByRole('link', { name: 'Checkout' }).click();
    await fillAddress(page);
    await fillCard(page, CARDS.succeeds);
    await page.getByTestId('place-order').click();
    await confirmedOrderId(page);
    expect(await stockOf(page.request, 17, 'standard')).toBe(stock - 1);
  });
});
