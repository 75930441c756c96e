import { test as base, expect, type Page } from '@playwright/test';

export interface ConsoleWatch {
  /** Messages matching these patterns are expected in this test and do not fail it. */
  allow(pattern: RegExp): void;
  errors(): string[];
}

/**
 * Every test fails on a stray console error or uncaught page error (docs/architecture.md, "Tests") unless it
 * declares the message as expected with `consoleWatch.allow(/…/)`.
 */
export const test = base.extend<{ consoleWatch: ConsoleWatch }>({
  consoleWatch: [
    async ({ page }, use) => {
      const allowed: RegExp[] = [];
      const seen: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') seen.push(message.text());
      });
      page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`));
      const watch: ConsoleWatch = {
        allow: (pattern) => void allowed.push(pattern),
        errors: () => seen.filter((text) => !allowed.some((pattern) => pattern.test(text))),
      };
      await use(watch);
      expect(watch.errors(), 'unexpected console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Every <img> on the page has loaded a real raster (not a broken image). */
export async function expectImagesLoaded(page: Page, selector = 'img') {
  await expect
    .poll(async () =>
      page.$$eval(selector, (images) =>
        images
          .filter(
            (img) =>
              img.getAttribute('loading') !== 'lazy' ||
              img.getBoundingClientRect().top < innerHeight,
          )
          .every(
            (img) =>
              (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
          ),
      ),
    )
    .toBe(true);
}
