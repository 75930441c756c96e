import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { VIEWPORTS } from './a11y-helpers';
import { startupDone } from './shop-helpers';
import { tabTo } from './keyboard-helpers';

/** Issue 22: the header at phone width is one compact row, and its menu works by keyboard. */

const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu' });
// The panel the button controls (aria-controls).
const menu = (page: Page) => page.locator('#navbar-menu');
const departmentsNav = (page: Page) => page.getByRole('navigation', { name: 'Departments' });

async function expectInside(outer: Locator, inner: Locator) {
  const [box, within] = [await outer.boundingBox(), await inner.boundingBox()];
  expect(box && within).toBeTruthy();
  expect(within!.y).toBeGreaterThanOrEqual(box!.y);
  expect(within!.y + within!.height).toBeLessThanOrEqual(box!.y + box!.height);
}

test.describe('phone header (390 × 844)', () => {
  test.use({ viewport: VIEWPORTS.phone });

  for (const path of ['/', '/department/chairs', '/department/chairs/product/13', '/cart']) {
    test(`${path}: logo, search, cart with its count and Menu in one row of at most 64 px`, async ({
      page,
    }) => {
      await page.goto(path);
      await startupDone(page);
      const header = page.getByRole('banner');
      await expect(page.getByTestId('cart-count')).toHaveAttribute('data-loaded', 'true');
      const box = await header.boundingBox();
      expect(box?.height).toBeLessThanOrEqual(64);
      for (const part of [
        page.getByRole('link', { name: 'Showroom home' }),
        page.getByRole('link', { name: /^Cart, \d+ items?$/ }),
        menuButton(page),
      ]) {
        await expect(part).toBeVisible();
        await expectInside(header, part);
      }
      // The search box sits in the same row.
      const search = header.getByRole('searchbox', { name: 'Search products' });
      await expect(search).toBeVisible();
      await expectInside(header, search);
      // The departments and the profile links wait in the closed menu.
      await expect(departmentsNav(page)).toBeHidden();
      await expect(page.getByTestId('sign-in-link')).toBeHidden();
    });
  }

  test('the menu by keyboard: Enter opens it, focus moves in and stays, Escape closes it and returns focus; Space opens it, a link is followed and the menu closes', async ({
    page,
  }) => {
    await page.goto('/');
    await startupDone(page);
    const button = menuButton(page);
    await expect(button).toHaveAttribute('aria-controls', 'navbar-menu');
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    await tabTo(page, button);
    await page.keyboard.press('Enter');
    await expect(menu(page)).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const links = menu(page).getByRole('link');
    await expect(links).toHaveText([
      'Tables',
      'Chairs',
      'Sofas',
      'Bedding',
      'Lighting',
      'Profile',
      'Sign in',
    ]);
    await expect(links.first()).toBeFocused();

    // Tab walks the panel and wraps around; Shift+Tab wraps back.
    const count = await links.count();
    for (let index = 1; index < count; index++) {
      await page.keyboard.press('Tab');
      await expect(links.nth(index)).toBeFocused();
    }
    await page.keyboard.press('Tab');
    await expect(links.first()).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(links.last()).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(menu(page)).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    await page.keyboard.press('Space');
    await expect(menu(page)).toBeVisible();
    await expect(links.first()).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // Chairs
    await expect(page).toHaveURL(/\/department\/chairs$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chairs');
    await expect(menu(page)).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  test('a tap outside the open menu closes it', async ({ page }) => {
    await page.goto('/department/chairs');
    await startupDone(page);
    await menuButton(page).click();
    await expect(departmentsNav(page)).toBeVisible();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    // On the dimmed page, over a product: the tap closes the menu and does nothing else.
    await page.mouse.click(200, 760);
    await expect(menu(page)).toBeHidden();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(page).toHaveURL(/\/department\/chairs$/);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the menu still opens (a native popover) and its links work', async ({ page }) => {
      await page.goto('/');
      await expect(departmentsNav(page)).toBeHidden();
      await menuButton(page).click();
      await expect(departmentsNav(page)).toBeVisible();
      await departmentsNav(page).getByRole('link', { name: 'Sofas' }).click();
      await expect(page).toHaveURL(/\/department\/sofas$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sofas');
    });
  });
});

test('on a desktop the full header stays: departments and profile links in the row, no Menu button', async ({
  page,
}) => {
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto('/department/chairs');
  await startupDone(page);
  const header = page.getByRole('banner');
  await expect(menuButton(page)).toBeHidden();
  await expect(departmentsNav(page).getByRole('link')).toHaveCount(5);
  for (const part of [
    departmentsNav(page),
    page.getByTestId('sign-in-link'),
    page.getByTestId('cart-link'),
  ]) {
    await expect(part).toBeVisible();
    await expectInside(header, part);
  }
  expect((await header.boundingBox())?.height).toBeLessThanOrEqual(64);
});
