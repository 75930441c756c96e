import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const storage = (page: Page) =>
  page.evaluate(() => ({ ...localStorage }) as Record<string, string>);

test.describe('/demo: the presenter control panel (issue 3)', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      Math.random = () => 0.5;
    });
  });

  test('shows identity, profile and version, and sets and clears an override', async ({ page }) => {
    await page.goto('/demo');
    await expect(page.getByTestId('demo-page')).toBeVisible();
    const stored = await storage(page);
    await expect(page.getByTestId('demo-identity')).toContainText(stored.user_id!);
    await expect(page.getByTestId('demo-profile')).toHaveText('local');
    await expect(page.getByTestId('demo-version')).toHaveText(/^\d\.\d{1,2}\.\d{1,2}(-beta|-rc)?$/);

    const payments = page.getByTestId('demo-flag-showPayments');
    await payments.getByRole('button', { name: 'On' }).click();
    await expect(payments.getByTestId('effective')).toHaveText('true (override)');
    expect((await storage(page)).showPayments).toBe('true');
    await payments.getByRole('button', { name: 'Clear' }).click();
    await expect(payments.getByTestId('override')).toHaveText('—');
    expect((await storage(page)).showPayments).toBeUndefined();
  });

  test('toggles demo modes in session storage', async ({ page }) => {
    await page.goto('/demo');
    await page.getByLabel('Buy-now button').check();
    await page.getByLabel('New product photos').check();
    const session = await page.evaluate(() => ({ ...sessionStorage }) as Record<string, string>);
    expect(JSON.parse(session.buyNowButton!)).toEqual({ enabled: true, shouldError: false });
    expect(JSON.parse(session.newProductPhotos!)).toEqual({ enabled: true });
  });

  test('resets the identity and switches the deployment profile', async ({
    page,
    consoleWatch,
  }) => {
    // The other profiles name hosts that are not ours: nothing may leave this machine.
    await page.route(
      (url) => !['localhost', '127.0.0.1'].includes(url.hostname),
      (route) => route.abort('blockedbyclient'),
    );
    consoleWatch.allow(
      /ERR_BLOCKED_BY_CLIENT|Failed to initialize feature flags provider|Failed to fetch/,
    );
    await page.goto('/demo');
    await expect(page.getByTestId('demo-identity')).toBeVisible();
    await page.evaluate(() => localStorage.setItem('user_name', 'someone.else'));
    await page.getByRole('button', { name: 'Reset identity' }).click();
    await expect(page.getByTestId('demo-identity')).not.toContainText('someone.else');
    expect((await storage(page)).user_name).not.toBe('someone.else');

    await page.getByLabel('Switch profile').selectOption('dda');
    await expect(page.getByTestId('demo-profile')).toHaveText('dda');
    expect((await storage(page)).rum_config_key).toBe('dda');
  });
});
