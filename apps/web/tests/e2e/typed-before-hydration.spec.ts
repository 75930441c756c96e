import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { futureExpiry, startupDone } from './shop-helpers';

// The page's scripts start after its first paint (decision 022), so a shopper can type into a
// server-rendered form before it hydrates. What they typed stays, in the input and in the
// form's state (components/checkout/form-field.tsx). The test holds the shop's scripts until it
// has typed, so the order is certain.

/** Holds every script of the shop's build until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('a card typed before the page hydrated is kept and saved', async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/profile-payment', { waitUntil: 'commit' });
  const add = page.getByTestId('add-card-form');
  await add.getByLabel('Card number').fill('4242424242424242');
  await add.getByLabel('Expiry (MM/YY)').fill(futureExpiry());
  await add.getByLabel('Security code (CVC)').fill('123');
  expect(await page.evaluate(() => document.documentElement.dataset.startup)).toBeUndefined();

  release();
  await startupDone(page);
  await expect(add.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await expect(add.getByLabel('Security code (CVC)')).toHaveValue('123');
  await add.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByTestId('saved-card')).toHaveCount(1);
  await expect(add.getByTestId('field-error')).toHaveCount(0);
});

test('the sign-up fields typed before the page hydrated are all kept', async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/signup', { waitUntil: 'commit' });
  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByLabel('E-mail').fill('grace.hopper@example.com');
  await page.getByLabel('Password').fill('a long enough password');
  expect(await page.evaluate(() => document.documentElement.dataset.startup)).toBeUndefined();

  release();
  await startupDone(page);
  await expect(page.getByLabel('Full name')).toHaveValue('Grace Hopper');
  await expect(page.getByLabel('E-mail')).toHaveValue('grace.hopper@example.com');
  await expect(page.getByLabel('Password')).toHaveValue('a long enough password');
});
