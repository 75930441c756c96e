import { expect, test } from './fixtures';
import { VIEWPORTS, expectAccessible, pageReady, showOptionalFeatures } from './a11y-helpers';
import {
  CARDS,
  addToCart,
  confirmedOrderId,
  fillAddress,
  fillCard,
  fixRandom,
  overrideFeature,
  signUp,
} from './shop-helpers';

/**
 * Every page of the shop as a first visit shows it, checked with axe-core at phone and desktop
 * size (README, "Accessibility"). A new route gets a line here; pages that need a cart, an
 * order or an account are checked by the journeys below.
 */
const PAGES: {
  path: string;
  /** false: no start-up runs (the scenarios layout, the root's error page). */
  startup?: false;
  status?: number;
  /** The page asks the api for something that is not there (a 404 the console reports). */
  apiMisses?: true;
}[] = [
  { path: '/' },
  { path: '/home' },
  { path: '/department/chairs' },
  { path: '/department/chairs?colour=brown&inStock=true&sort=price-asc' },
  { path: '/search' },
  { path: '/search?q=oak' },
  { path: '/search?q=qwxzv' },
  { path: '/department/chairs/product/13' },
  { path: '/department/chairs/product/special-edition-13' },
  { path: '/department/tables/product/10' },
  { path: '/cart' },
  { path: '/checkout' },
  { path: '/profile' },
  { path: '/profile-edit' },
  { path: '/profile-payment' },
  { path: '/signup' },
  { path: '/signup-verify', apiMisses: true },
  { path: '/signin' },
  { path: '/verification' },
  { path: '/loyalty-signup' },
  { path: '/outbox' },
  { path: '/demo' },
  { path: '/flags' },
  { path: '/inspector' },
  { path: '/experiments' },
  { path: '/experiments/instant_pay' },
  { path: '/scenarios', startup: false },
  { path: '/video-quality-monitoring-demo' },
  { path: '/no-such-page', status: 404, startup: false },
];

// Bought by the journeys below, one per size (other tests buy other products and count stock).
const PURCHASES = {
  phone: { id: 44, department: 'bedding', edition: 'standard' },
  desktop: { id: 46, department: 'bedding', edition: 'standard' },
} as const;

const PASSWORD = 'a demo password of some length';

for (const size of ['phone', 'desktop'] as const) {
  const viewport = VIEWPORTS[size];
  test.describe(`accessibility at ${size} size (${viewport.width} × ${viewport.height})`, () => {
    test.use({ viewport });
    test.beforeEach(async ({ page }) => {
      await showOptionalFeatures(page);
    });

    for (const { path, startup, status = 200, apiMisses } of PAGES) {
      test(`${path}`, async ({ page, consoleWatch }) => {
        // Chromium reports a 404 (the document's or the api's) as a console error.
        if (status === 404 || apiMisses) consoleWatch.allow(/status of 404/);
        const response = await page.goto(path);
        expect(response?.status()).toBe(status);
        await pageReady(page, { startup: startup ?? true });
        await expectAccessible(page);
      });
    }

    test('a purchase: product added, cart, checkout with its errors and each step, confirmation', async ({
      page,
    }) => {
      test.slow(); // several full page loads and seven scans
      await fixRandom(page, 0.5); // instant_pay variant a: the classic three steps
      // Both checkout flows: the classic one on phones, the single-page one on desktops.
      await overrideFeature(page, 'newCheckoutFlow', size === 'desktop');
      await addToCart(page, PURCHASES[size], 1);
      await expectAccessible(page); // with "Added to cart"

      await page.goto('/cart');
      await pageReady(page);
      await expect(page.getByTestId('cart')).toBeVisible();
      await expectAccessible(page);

      await page.goto('/checkout');
      await pageReady(page);
      await expect(page.getByTestId('address-form')).toBeVisible();
      await expectAccessible(page);
      const submit =
        size === 'desktop'
          ? page.getByTestId('place-order')
          : page.getByRole('button', { name: 'Continue to payment' });
      await submit.click();
      await expect(page.getByTestId('field-error').first()).toBeVisible();
      await expectAccessible(page); // fields marked invalid, with their messages

      await fillAddress(page);
      if (size === 'phone') {
        await page.getByRole('button', { name: 'Continue to payment' }).click();
        await expect(page.getByTestId('card-fields')).toBeVisible();
        await expectAccessible(page);
        await fillCard(page, CARDS.succeeds);
        await page.getByRole('button', { name: 'Continue to review' }).click();
        await expect(page.getByTestId('review-details')).toBeVisible();
        await expectAccessible(page);
      } else {
        await fillCard(page, CARDS.succeeds);
      }
      await page.getByTestId('place-order').click();
      await confirmedOrderId(page);
      await pageReady(page);
      await expectAccessible(page);

      // A session's page in the inspector (the pages above sent theirs as they were left).
      const sessions = page.getByTestId('session-table');
      await expect(async () => {
        await page.goto('/inspector');
        await expect(sessions).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await sessions.getByRole('link').first().click();
      await expect(page).toHaveURL(/\/inspector\/sessions\//);
      await pageReady(page);
      await expectAccessible(page);
    });

    test('an account: sign-up errors, the code on its way, the outbox, verified, the profile', async ({
      page,
    }) => {
      test.slow(); // several full page loads and six scans
      await page.goto('/signup');
      await pageReady(page);
      const form = page.getByTestId('signup-form');
      await form.getByRole('button', { name: /create/i }).click();
      await expect(form.getByTestId('field-error').first()).toBeVisible();
      await expectAccessible(page);

      const email = `a11y.${size}.${Date.now()}@example.com`;
      await signUp(page, { name: 'Grace Hopper', email, password: PASSWORD });
      await expectAccessible(page); // waiting for the code

      await page.goto('/outbox');
      await pageReady(page);
      const message = page.getByTestId('outbox-message').first();
      const code = ((await message.getByTestId('outbox-code').textContent()) ?? '').trim();
      await expectAccessible(page);

      await page.goto('/signup-verify');
      await pageReady(page);
      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page).toHaveURL(/\/verification$/);
      await expect(page.getByTestId('verified-email')).toHaveText(email);
      await expectAccessible(page);

      await page.goto('/profile');
      await pageReady(page);
      await expect(page.getByTestId('account-link')).toHaveText('Grace Hopper');
      await expectAccessible(page);
    });
  });
}
