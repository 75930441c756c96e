import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has focus, as a keyboard user would;
 * fails when it is not reached within `max` presses (not in the tab order, or hidden).
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { max = 40, backwards = false }: { max?: number; backwards?: boolean } = {},
) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${String(target)} was not reached within ${max} presses of Tab`);
}

/** The focused element shows where focus is: an outline of at least 2 px. */
export async function expectFocusVisible(target: Locator) {
  await expect(target).toBeFocused();
  const outline = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
  });
  expect(outline.style, `outline of ${String(target)}`).not.toBe('none');
  expect(outline.width, `outline width of ${String(target)}`).toBeGreaterThanOrEqual(2);
}
