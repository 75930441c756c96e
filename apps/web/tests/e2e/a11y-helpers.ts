import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { startupDone } from './shop-helpers';

/** The two sizes every page is checked at: a phone (issue 22: 390 × 844) and a laptop. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/**
 * axe-core's WCAG 2.0/2.1/2.2 A and AA rules, and its best practices: Lighthouse's
 * accessibility score counts some of them too (heading order, alt text that repeats the
 * caption, landmarks, skip links).
 */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** The optional parts of pages (loyalty banner and points, saved cards, the LoAF demo) are shown. */
export async function showOptionalFeatures(page: Page) {
  await page.addInitScript(() => {
    for (const key of ['showLoyaltyProgram', 'showPayments', 'showLoAF']) {
      localStorage.setItem(key, 'true');
    }
  });
}

/**
 * The page has finished arriving: start-up has run and flags are known (both change what is
 * shown), nothing is still loading (`aria-busy`), and its heading is there.
 */
export async function pageReady(page: Page, { startup = true } = {}) {
  if (startup) {
    await startupDone(page);
    await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready');
  }
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/**
 * No axe violation, one h1, a title and a meta description (what Lighthouse's SEO audit asks
 * of every page). Heading order is axe's `heading-order`.
 */
export async function expectAccessible(page: Page) {
  const where = new URL(page.url()).pathname;
  // Legacy mode: one axe.run in the page, three times faster than axe's cross-frame run on two
  // cores; the shop has no frames to cross.
  const { violations } = await new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  const found = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? '?'}): ${violation.help} — ${violation.nodes
        .slice(0, 5)
        .map((node) => node.target.join(' '))
        .join(' | ')}`,
  );
  expect(found, `axe violations on ${where}`).toEqual([]);
  await expect(page.locator('h1'), `one h1 on ${where}`).toHaveCount(1);
  await expect(page, `title of ${where}`).toHaveTitle(/\S/);
  const description = page.locator('head meta[name="description"]');
  await expect(description, `one meta description on ${where}`).toHaveCount(1);
  await expect(description, `meta description of ${where}`).toHaveAttribute('content', /\S{3}/);
}
