import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { futureExpiry, startupDone } from './shop-helpers';

// The page's scripts start after its first paint (decision 022), so a shopper can type into a
// server-rendered form before it hydrates. What they typed stays, in the input and in the
// form's state (components/checkout/form-field.tsx). The test holds the shop's scripts until it
// has typed, so the order is certain.

/**
 * Opens `path` with the shop's scripts held back, runs `type` while the page has not hydrated
 * (start-up has not run), then lets the scripts load and waits for start-up.
 */
async function typeBeforeHydration(page: Page, path: string, type: () => Promise<void>) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(path, { waitUntil: 'commit' });
  await type();
  expect(await page.evaluate(() => document.documentElement.dataset.startup)).toBeUndefined();
  release();
  await startupDone(page);
}

test('a card typed before the page hydrated is kept and saved', async ({ page }) => {
  const add = page.getByTestId('add-card-form');
  await typeBeforeHydration(page, '/profile-payment', async () => {
    await add.getByLabel('Card number').fill('4242424242424242');
    await add.getByLabel('Expiry (MM/YY)').fill(futureExpiry());
    await add.getByLabel('Security code (CVC)').fill('123');
  });
  await expect(add.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await expect(add.getByLabel('Security code (CVC)')).toHaveValue('123');
  await add.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByTestId('saved-card')).toHaveCount(1);
  await expect(add.getByTestId('field-error')).toHaveCount(0);
});

test('the sign-up fields typed before the page hydrated are all kept', async ({ page }) => {
  await typeBeforeHydration(page, '/signup', async () => {
    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByLabel('E-mail').fill('grace.hopper@example.com');
    await page.getByLabel('Password').fill('a long enough password');
  });
  await expect(page.getByLabel('Full name')).toHaveValue('Grace Hopper');
  await expect(page.getByLabel('E-mail')).toHaveValue('grace.hopper@example.com');
  await expect(page.getByLabel('Password')).toHaveValue('a long enough password');
});
