import { expect, test } from './fixtures';
import {
  CARDS,
  addToCart,
  apiGet,
  confirmedOrderId,
  fillAddress,
  fillCard,
  fixRandom,
  overrideFeature,
  startupDone,
} from './shop-helpers';

interface Pick {
  id: number;
  department: string;
  edition: 'standard' | 'special';
  quantity: number;
}

test.describe('saved payments and the profile', () => {
  test.beforeEach(async ({ page }) => {
    await fixRandom(page, 0.5); // instant_pay variant a
  });

  test('saved payments: save a card at checkout, pay with it next time, see both orders on the profile', async ({
    page,
    consoleWatch,
  }) => {
    test.slow(); // a whole shopping journey, several full page loads
    consoleWatch.allow(/status of 404/);
    await overrideFeature(page, 'newCheckoutFlow', true);
    const first: Pick = { id: 13, department: 'chairs', edition: 'standard', quantity: 1 };
    const second: Pick = { id: 19, department: 'chairs', edition: 'standard', quantity: 1 };

    await page.goto('/?payments=true');
    await startupDone(page);
    await addToCart(page, first, 1);
    await page.getByTestId('cart-link').click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    await fillAddress(page);
    await fillCard(page, CARDS.succeeds, { save: true });
    await page.getByTestId('place-order').click();
    const firstOrder = await confirmedOrderId(page);

    await addToCart(page, second, 1);
    await page.getByTestId('cart-link').click();
    await page.getByRole('link', { name: 'Checkout' }).click();
    const saved = page.getByTestId('saved-cards');
    await expect(saved.getByLabel(/Visa •••• 4242/)).toBeChecked();
    await expect(page.getByTestId('card-fields')).toHaveCount(0);
    await fillAddress(page);
    await page.getByTestId('place-order').click();
    const secondOrder = await confirmedOrderId(page);
    await expect(page.getByTestId('order-payment')).toHaveText('Visa •••• 4242');

    await page.getByRole('link', { name: 'Your orders' }).click();
    const rows = page.getByTestId('order-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute('data-order-id', secondOrder);
    await expect(rows.last()).toHaveAttribute('data-order-id', firstOrder);
    await expect(page.getByTestId('saved-card')).toHaveCount(1);

    // Payment methods: add another card, make it the default, delete the first.
    await page.getByRole('link', { name: 'Payment methods' }).first().click();
    await expect(page.getByTestId('saved-card')).toHaveCount(1);
    const add = page.getByTestId('add-card-form');
    await add.getByLabel('Card number').fill('5555 5555 5555 4444');
    await add.getByLabel('Expiry (MM/YY)').fill('11/30');
    await add.getByLabel('Security code (CVC)').fill('321');
    await add.getByRole('button', { name: 'Save card' }).click();
    const cards = page.getByTestId('saved-card');
    await expect(cards).toHaveCount(2);
    // The first card saved is the default, listed first.
    await expect(cards.first()).toContainText('Visa');
    await expect(cards.first().getByTestId('default-card-badge')).toHaveText('Default');
    await expect(cards.nth(1)).toContainText('Mastercard');
    await cards
      .filter({ hasText: 'Mastercard' })
      .getByRole('button', { name: /^Make default/ })
      .click();
    await expect(cards.first()).toContainText('Mastercard');
    await expect(cards.first().getByTestId('default-card-badge')).toHaveText('Default');
    await cards
      .filter({ hasText: 'Visa' })
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect(page.getByTestId('saved-card')).toHaveCount(1);
    const methods = await apiGet<{ paymentMethods: { brand: string; last4: string }[] }>(
      page,
      '/payment-methods',
    );
    expect(methods.paymentMethods).toEqual([
      expect.objectContaining({ brand: 'mastercard', last4: '4444' }),
    ]);

    // An order page of another session is the shop's 404.
    await page.goto(`/order/${firstOrder.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  });
});
