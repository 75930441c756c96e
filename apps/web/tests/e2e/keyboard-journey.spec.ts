import { expect, test } from './fixtures';
import { VIEWPORTS } from './a11y-helpers';
import { expectFocusVisible, tabTo } from './keyboard-helpers';
import {
  ADDRESS,
  CARDS,
  confirmedOrderId,
  fixRandom,
  futureExpiry,
  overrideFeature,
  startupDone,
} from './shop-helpers';

// Bought here (product 49); other tests buy other products.
const PRODUCT = 'Arc Brass Floor Lamp';
const QUERY = 'arc bra';

test.use({ viewport: VIEWPORTS.desktop });

test('keyboard only: from the home page to a product, the cart, the checkout with its errors, and the order confirmation', async ({
  page,
}) => {
  test.slow(); // a whole purchase, a key at a time
  await fixRandom(page, 0.5); // instant_pay variant a: "Place order" on the review step
  await overrideFeature(page, 'newCheckoutFlow', false);
  await page.goto('/');
  await startupDone(page);

  // The first Tab offers to skip the header.
  await page.keyboard.press('Tab');
  await expectFocusVisible(page.getByRole('link', { name: 'Skip to content' }));

  // To a product through the header's search: a few typed words, Enter, the result.
  // A searchbox until its first focus, then a combobox with suggestions: found by its label.
  const search = page.getByLabel('Search products', { exact: true });
  await tabTo(page, search);
  await expectFocusVisible(search);
  await page.keyboard.type(QUERY);
  // With no suggestion chosen, Enter searches for what was typed.
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(QUERY);

  const card = page.getByTestId('product-card').filter({ hasText: PRODUCT });
  const name = (await card.getByRole('heading').textContent()) ?? '';
  expect(name).toBe(PRODUCT);
  const productLink = card.getByRole('link', { name });
  await tabTo(page, productLink);
  await expectFocusVisible(productLink);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('product-name')).toHaveText(name);

  // Into the cart, and to it.
  const add = page.getByTestId('add-to-cart');
  await expect(add).toBeEnabled();
  await tabTo(page, add);
  await expectFocusVisible(add);
  await page.keyboard.press('Enter');
  const added = page.getByTestId('add-to-cart-result');
  await expect(added).toContainText('Added to cart');
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await tabTo(page, added.getByRole('link', { name: 'View cart' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cart')).toContainText(name);

  const checkout = page.getByRole('link', { name: 'Checkout', exact: true });
  await tabTo(page, checkout);
  await expectFocusVisible(checkout);
  await page.keyboard.press('Enter');
  const address = page.getByTestId('address-form');
  await expect(address).toBeVisible();

  // Continuing without an address: focus lands on the first field in error, which carries its
  // message (what a screen reader reads on arrival).
  const toPayment = page.getByRole('button', { name: 'Continue to payment' });
  await tabTo(page, toPayment);
  await page.keyboard.press('Enter');
  const street = address.getByLabel('Address', { exact: true });
  await expect(street).toBeFocused();
  await expect(street).toHaveAttribute('aria-invalid', 'true');
  await expect(street).toHaveAccessibleDescription(/\S/);
  await expectFocusVisible(street);

  // The name and e-mail are the shopper's already; the rest is typed.
  await page.keyboard.type(ADDRESS.address1);
  await tabTo(page, address.getByLabel('City'));
  await page.keyboard.type(ADDRESS.city);
  await tabTo(page, address.getByLabel('Postal code'));
  await page.keyboard.type(ADDRESS.postalCode);
  await page.keyboard.press('Enter');

  // Each new step's heading takes focus, so the step is announced.
  await expect(page.getByRole('heading', { level: 2, name: 'Payment' })).toBeFocused();
  const cardFields = page.getByTestId('card-fields');
  await tabTo(page, cardFields.getByLabel('Card number'));
  await page.keyboard.type(CARDS.succeeds);
  await tabTo(page, cardFields.getByLabel('Expiry (MM/YY)'));
  await page.keyboard.type(futureExpiry());
  await tabTo(page, cardFields.getByLabel('Security code (CVC)'));
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { level: 2, name: 'Review & place order' })).toBeFocused();
  await expect(page.getByTestId('review-details')).toContainText(ADDRESS.address1);
  const place = page.getByTestId('place-order');
  await tabTo(page, place);
  await expectFocusVisible(place);
  await page.keyboard.press('Enter');
  await confirmedOrderId(page);
});
