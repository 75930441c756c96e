import { expect, expectImagesLoaded, test } from './fixtures';
import { scriptStartAndImageEnd, startupDone } from './shop-helpers';

const DEPARTMENTS = ['Tables', 'Chairs', 'Sofas', 'Bedding', 'Lighting'];

test.describe('catalog', () => {
  test('the home page lists every department with images and featured products', async ({
    page,
  }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    const nav = page.getByRole('navigation', { name: 'Departments' });
    for (const name of DEPARTMENTS) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }
    await expect(page.locator('.department-tile')).toHaveCount(5);
    await expect(page.getByTestId('product-card')).toHaveCount(10);
    await expectImagesLoaded(page);
  });

  test('a department lists at least 12 products, each with an image and a price', async ({
    page,
  }) => {
    await page.goto('/department/chairs');
    await expect(page.getByRole('heading', { level: 1, name: 'Chairs' })).toBeVisible();
    const cards = page.getByTestId('product-card');
    expect(await cards.count()).toBeGreaterThanOrEqual(12);
    await expect(cards.first().locator('picture source[type="image/avif"]')).toHaveCount(1);
    await expect(cards.first().locator('img')).toHaveAttribute('width', /\d+/);
    await expect(cards.first().locator('img')).toHaveAttribute('height', /\d+/);
    await expectImagesLoaded(page, '.product-card img');
  });

  test('sorting by price and by name reorders the grid', async ({ page }) => {
    await page.goto('/department/sofas');
    const prices = async () =>
      (await page.getByTestId('product-price').allTextContents()).map((text) =>
        Number(text.replace(/[^0-9.]/g, '')),
      );
    const names = () => page.locator('.product-card__name').allTextContents();
    const sorted = <T>(values: T[], compare: (a: T, b: T) => number) =>
      values.every((value, index) => index === 0 || compare(values[index - 1]!, value) <= 0);
    // The sort applies on change once React is in charge of the form (before hydration a
    // changed select waits for its Apply button): start-up runs after hydration.
    await startupDone(page);
    // The URL can change a moment before the grid re-renders: each check waits for the grid.
    await page.getByLabel('Sort by').selectOption('price-asc');
    await expect(page).toHaveURL(/sort=price-asc/);
    await expect.poll(async () => sorted(await prices(), (a, b) => a - b)).toBe(true);
    const ascending = await prices();
    expect(ascending.length).toBeGreaterThanOrEqual(12);

    await page.getByLabel('Sort by').selectOption('price-desc');
    await expect(page).toHaveURL(/sort=price-desc/);
    await expect.poll(prices).toEqual([...ascending].reverse());

    await page.getByLabel('Sort by').selectOption('name-asc');
    await expect(page).toHaveURL(/sort=name-asc/);
    await expect
      .poll(async () => sorted(await names(), (a, b) => a.localeCompare(b, 'en')))
      .toBe(true);
  });

  test('a product page shows gallery, price, stock, materials and an add-to-cart control', async ({
    page,
  }) => {
    await page.goto('/department/lighting');
    const firstCard = page.getByTestId('product-card').first();
    const name = (await firstCard.locator('.product-card__name').textContent()) ?? '';
    await firstCard.locator('.product-card__link').click();
    await expect(page.getByTestId('product-name')).toHaveText(name);
    await expect(page.getByTestId('product-detail').getByTestId('product-price')).toHaveText(
      /^\$[\d,]+\.\d\d$/,
    );
    await expect(page.getByTestId('product-stock')).toHaveText(/\d+ in stock/);
    await expect(page.getByTestId('product-materials')).not.toBeEmpty();
    await expect(page.getByTestId('add-to-cart')).toBeVisible();

    const main = page.locator('.gallery__main img');
    const before = await main.getAttribute('src');
    // The gallery's buttons work once React is in charge of the page (the card's link may have
    // been followed as a plain link before the listing hydrated): start-up runs after hydration.
    await startupDone(page);
    await page.getByRole('button', { name: 'Show Close-up' }).click();
    await expect(main).not.toHaveAttribute('src', before ?? '');
    await expectImagesLoaded(page, '.gallery img');
  });

  test('the special edition has its own badge, price and stock', async ({ page }) => {
    await page.goto('/department/tables/product/3');
    const standardPrice = await page
      .getByTestId('product-detail')
      .getByTestId('product-price')
      .textContent();
    await page.locator('.special-link').click();
    await expect(page).toHaveURL(/\/department\/tables\/product\/special-edition-3$/);
    await expect(page.getByTestId('product-detail')).toHaveAttribute('data-edition', 'special');
    await expect(page.locator('.badge--large')).toBeVisible();
    await expect(page.getByTestId('product-detail').getByTestId('product-price')).not.toHaveText(
      standardPrice ?? '',
    );
    await expect(page.getByTestId('product-stock')).toHaveText(/limited run/);
  });

  test('the table landing page preloads its hero, which is the LCP element', async ({ page }) => {
    const response = await page.goto('/department/tables/product/10');
    expect(response?.status()).toBe(200);
    await expect(page.locator('link[rel="preload"][as="image"]')).toHaveCount(1);
    const hero = page.locator('.landing__hero img');
    await expect(hero).toHaveAttribute('fetchpriority', 'high');
    const lcpSrc = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as (PerformanceEntry & {
              element?: Element | null;
            })[];
            const last = entries.at(-1);
            const img = last?.element as HTMLImageElement | null | undefined;
            if (img) resolve(img.currentSrc);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    expect(lcpSrc).toContain('/img/hero/table-10-');
    expect(await hero.evaluate((img: HTMLImageElement) => img.currentSrc)).toBe(lcpSrc);
  });

  test('the scripts are fetched after the largest image has loaded and painted (decision 022)', async ({
    page,
  }) => {
    await page.goto('/department/tables/product/10');
    await startupDone(page);
    const heroPaint = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as (PerformanceEntry & {
              element?: Element;
              url?: string;
            })[];
            for (const entry of entries) {
              // The photo itself, not the stand-in inside the document (a data: URL).
              if (entry.element?.closest('.landing__hero') && entry.url?.startsWith('http')) {
                resolve(entry.startTime);
              }
            }
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    const { firstScriptStart, imageEnd } = await scriptStartAndImageEnd(
      page,
      /\/img\/hero\/table-10-/,
    );
    expect(imageEnd).toBeGreaterThan(0);
    expect(Number.isFinite(firstScriptStart)).toBe(true);
    expect(firstScriptStart).toBeGreaterThanOrEqual(imageEnd);
    expect(firstScriptStart).toBeGreaterThanOrEqual(heroPaint);
  });

  test('a product page carries its first photo inside the document, painted with it', async ({
    page,
  }) => {
    const html = await (await page.request.get('/department/chairs/product/13')).text();
    const inline = html.match(/background-image:url\(data:image\/avif;base64,/g) ?? [];
    expect(inline).toHaveLength(1);
    await page.goto('/department/chairs/product/13');
    const withStandIn = page.locator('img[style*="data:image/avif"]');
    await expect(withStandIn).toHaveCount(1);
    await expect(withStandIn).toHaveAttribute('src', /\/img\/products\/13\/std-0-/);
    await expect(withStandIn).toHaveAttribute('fetchpriority', 'high');
  });
});
