import { expect, test } from './fixtures';

test.describe('error pages (docs/requirements.md §2, §5, §8)', () => {
  test.beforeEach(({ consoleWatch }) => {
    // Chromium reports the document's own 404 status as a console error.
    consoleWatch.allow(/status of 404/);
  });

  test('an unmatched path is a 404 "Page not found: {path}"', async ({ page }) => {
    const response = await page.goto('/nope');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.getByText('Page not found: /nope')).toBeVisible();
    expect(await response?.text()).toContain('Page not found: /nope');
  });

  test('an unknown department fails its validity check with "Page Not Found: {path}"', async ({
    page,
  }) => {
    const response = await page.goto('/department/nope');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.getByText('Page Not Found: /department/nope')).toBeVisible();
  });

  for (const path of [
    '/department/tables/product/99999',
    '/department/chairs/product/10',
    '/department/tables/product/abc',
    '/department/tables/product/special-edition-99999',
  ]) {
    test(`${path} is a 404 with the path in the message`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByText(`Page Not Found: ${path}`)).toBeVisible();
    });
  }
});
