import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresDatabase } from './postgres-database';
import type { Locator, Page } from '@playwright/test';
import { DEFAULT_PAGE_SIZE, type CatalogSeed, type ProductPage } from '@showroom/contracts/catalog';
import type { SearchResults } from '@showroom/contracts/search';
import { expect, test } from './fixtures';
import {
  drawWithoutAnonymity,
  inspectSession,
  leavePage,
  rumSessionId,
  startSecondApi,
  startSecondWeb,
  type InspectedSession,
} from './monitoring-helpers';
import { API_URL, startupDone } from './shop-helpers';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const catalog = JSON.parse(
  fs.readFileSync(path.join(REPO_ROOT, 'data/catalog.json'), 'utf8'),
) as CatalogSeed;

/**
 * A word of one product's description only. Both databases stem words ("hallways" also finds
 * "hallway"), so no other product may hold its first five letters anywhere, and its own name,
 * kind and materials may not either.
 */
const DESCRIPTION_WORD = 'joinery';
const describedProduct = (() => {
  const stem = DESCRIPTION_WORD.slice(0, 5);
  const texts = (product: CatalogSeed['products'][number]) =>
    [product.name, product.kind, product.department, ...product.materials].join(' ').toLowerCase();
  const holders = catalog.products.filter((product) =>
    `${texts(product)} ${product.description.toLowerCase()}`.includes(stem),
  );
  const [product] = holders;
  if (holders.length !== 1 || !product || texts(product).includes(stem)) {
    throw new Error(`"${DESCRIPTION_WORD}" must be in one product's description only`);
  }
  return product;
})();
const SOFAS = catalog.products.filter((product) => product.department === 'sofas');

const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
// Beside this run's api, away from the monitoring spec's second api (+ 7).
const PG_API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 11;
const PG_WEB_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 12;

const searchBox = (page: Page) => page.getByLabel('Search products');
const cardNames = (scope: Page | Locator) =>
  scope.getByTestId('product-card').locator('.product-card__name').allTextContents();
const productCount = (page: Page) => page.getByTestId('product-count');

/** Every product name of a search, following its Next links from the page shown. */
async function namesOverAllPages(page: Page): Promise<string[]> {
  const names = await cardNames(page.getByTestId('search-results'));
  const pager = page.getByTestId('pager');
  const next = pager.getByRole('link', { name: 'Next' });
  if ((await next.count()) === 0) return names;
  const showing = (await pager.locator('span').textContent()) ?? '';
  await next.click();
  // The address changes before React renders the next page: wait for its range.
  await expect(pager.locator('span')).not.toHaveText(showing);
  return [...names, ...(await namesOverAllPages(page))];
}

/** A search word by word finds by description and by prefix, wherever the page's data comes from. */
async function expectDescriptionAndPrefixSearch(page: Page, origin = '') {
  await page.goto(`${origin}/search?q=${DESCRIPTION_WORD}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Results for “${DESCRIPTION_WORD}”`,
  );
  await expect(productCount(page)).toHaveText('1 product');
  expect(await cardNames(page)).toEqual([describedProduct.name]);

  await page.goto(`${origin}/search?q=sof`);
  await expect(productCount(page)).toHaveText(/^\d+ products$/);
  // Name matches rank first; every product of the sofas department matches the prefix.
  expect((await cardNames(page))[0]).toMatch(/sofa/i);
  const names = await namesOverAllPages(page);
  expect(names).toEqual(expect.arrayContaining(SOFAS.map((product) => product.name)));
  expect(new Set(names).size).toBe(names.length);
}

test.describe('search', () => {
  test('the header searches from every page, without JavaScript too', async ({
    page,
    browser,
    request,
  }) => {
    for (const path of ['/', '/department/chairs', '/department/chairs/product/13', '/cart']) {
      await page.goto(path);
      await expect(searchBox(page), path).toBeVisible();
      await expect(page.getByRole('search').getByRole('button', { name: 'Search' })).toBeVisible();
    }
    await startupDone(page);
    await searchBox(page).fill(DESCRIPTION_WORD);
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL(`/search?q=${DESCRIPTION_WORD}`);
    // The address changes before React renders the results: wait for their count.
    await expect(productCount(page)).toHaveText('1 product');
    expect(await cardNames(page)).toEqual([describedProduct.name]);
    await expect(page).toHaveTitle(`“${DESCRIPTION_WORD}” — Search — Showroom`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      `1 product matches “${DESCRIPTION_WORD}” at Showroom.`,
    );

    // The same forms as plain HTML: the header's, then the filters' (prices in dollars). The
    // api's answers for the two views are what the pages must show.
    const results = async (query: string) => {
      const response = await request.get(`${API_URL}/search${query}&limit=${DEFAULT_PAGE_SIZE}`);
      expect(response.status()).toBe(200);
      return (await response.json()) as SearchResults;
    };
    const all = await results('?q=sofa%20bed');
    const expensive = await results('?q=sofa%20bed&minPrice=50000');
    expect(expensive.total).toBeGreaterThan(0);
    expect(expensive.total).toBeLessThan(all.total);
    const plural = (total: number) => `${total} product${total === 1 ? '' : 's'}`;
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const plain = await context.newPage();
      await plain.goto('/department/tables');
      await searchBox(plain).fill('sofa bed');
      await plain.getByRole('search').getByRole('button', { name: 'Search' }).click();
      await expect(plain).toHaveURL(/\/search\?q=sofa\+bed$/);
      await expect(plain.getByRole('heading', { level: 1 })).toHaveText('Results for “sofa bed”');
      // The address changes while the document still streams: these assertions retry.
      await expect(productCount(plain)).toHaveText(plural(all.total));
      await expect(plain.getByTestId('product-card')).toHaveCount(all.products.length);
      await plain.getByLabel('Min price ($)').fill('500');
      await plain.getByTestId('listing-filters').getByRole('button', { name: 'Apply' }).click();
      // Redirected to the canonical address: cents, one order.
      await expect(plain).toHaveURL(/\/search\?q=sofa%20bed&minPrice=50000$/);
      await expect(plain.getByLabel('Min price ($)')).toHaveValue('500');
      await expect(productCount(plain)).toHaveText(plural(expensive.total));
      await expect(plain.getByTestId('product-price')).toHaveCount(expensive.products.length);
      const prices = await plain.getByTestId('product-price').allTextContents();
      for (const text of prices) {
        expect(Number(text.replace(/[^0-9.]/g, ''))).toBeGreaterThanOrEqual(500);
      }
    } finally {
      await context.close();
    }
  });

  test('search finds a product by a word of its description and sofas by a prefix (SQLite)', async ({
    page,
  }) => {
    await expectDescriptionAndPrefixSearch(page);
  });

  test('typing shows suggestions; arrow keys choose one, Enter opens it, Escape closes the list', async ({
    page,
  }) => {
    await page.goto('/department/lighting');
    await startupDone(page);
    const box = searchBox(page);
    const list = page.getByRole('listbox', { name: 'Search suggestions' });
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/search/suggestions')) asked.push(url.searchParams.get('q') ?? '');
    });

    await box.pressSequentially('sof');
    await expect(list).toBeVisible();
    await expect(box).toHaveAttribute('role', 'combobox');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    const options = list.getByRole('option');
    await expect(options.first()).toBeVisible();
    // The last call was for the whole text; none for a single letter.
    expect(asked.at(-1)).toBe('sof');
    expect(asked).not.toContain('s');

    await box.press('Escape');
    await expect(list).toBeHidden();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(box).toHaveValue('sof');

    await box.press('ArrowDown');
    await expect(list).toBeVisible();
    const first = options.first();
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
    await box.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await box.press('ArrowUp');
    await expect(first).toHaveAttribute('aria-selected', 'true');

    const term = (await first.textContent()) ?? '';
    expect(term).toMatch(/^sof/);
    await box.press('Enter');
    await expect(page).toHaveURL(`/search?q=${encodeURIComponent(term)}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Results for “${term}”`);
    await expect(list).toBeHidden();

    // A product suggestion opens its page.
    await box.fill('');
    await box.pressSequentially('chesterfield');
    const product = list.getByRole('option', { name: /Chesterfield/ });
    await product.click();
    await expect(page).toHaveURL(/\/department\/sofas\/product\/\d+$/);
    await expect(page.getByTestId('product-name')).toContainText('Chesterfield');
  });

  test('a keystroke cancels the suggestion call in flight', async ({ page }) => {
    await page.goto('/');
    await startupDone(page);
    const aborted: string[] = [];
    page.on('requestfailed', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/search/suggestions')) {
        aborted.push(`${url.searchParams.get('q')} ${request.failure()?.errorText}`);
      }
    });
    // The first call gets no answer until the test says so; the later ones go through.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/search/suggestions?q=ta', async (route) => {
      await held;
      await route.continue().catch(() => {}); // the page gave up on it: nothing to continue
    });
    const first = page.waitForRequest((request) =>
      request.url().endsWith('/search/suggestions?q=ta'),
    );
    await searchBox(page).pressSequentially('ta');
    await first;
    await searchBox(page).press('b');
    await expect(page.getByRole('listbox', { name: 'Search suggestions' })).toBeVisible();
    await expect.poll(() => aborted).toEqual(['ta net::ERR_ABORTED']);
    release();
    const options = await page.getByRole('option').allTextContents();
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) expect(option.toLowerCase()).toContain('tab');
  });

  test('a search that finds nothing shows a suggestion, tips and popular products, and is monitored', async ({
    page,
    request,
  }) => {
    // The journey, then up to 30 s for the flushed actions to be stored (the poll below): the
    // default 30 s for the whole test cut that wait short on a busy machine.
    test.setTimeout(60_000);
    await drawWithoutAnonymity(page);
    await page.goto('/department/tables');
    await startupDone(page);
    const sessionId = await rumSessionId(page);

    await searchBox(page).fill('sofe');
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL('/search?q=sofe');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No results for “sofe”');
    const zero = page.getByTestId('zero-results');
    await expect(zero.getByRole('heading', { name: 'Search tips' })).toBeVisible();
    await expect(zero.getByTestId('popular-products').getByTestId('product-card')).toHaveCount(4);
    const suggestion = zero.getByTestId('spelling-suggestion');
    await expect(zero).toContainText(/Did you mean \w+\?/);
    const corrected = (await suggestion.textContent()) ?? '';
    await suggestion.click();
    await expect(page).toHaveURL(`/search?q=${corrected}`);
    await expect(productCount(page)).toHaveText(/^[1-9]\d* products?$/);

    await leavePage(page);
    let stored: InspectedSession | null = null;
    // The search actions as "name: length, outcome", in order of name: one per results view —
    // the zero-result search (search and zero-result search), then the corrected one.
    const searches = () =>
      (stored?.timeline ?? [])
        .filter((entry) => entry.kind === 'action' && entry.title.endsWith('search'))
        .map(({ title, detail }) => {
          const found = detail.result_count === 0 ? 'nothing' : 'found';
          const suggested =
            'spelling_suggestion' in detail ? `, suggestion ${detail.spelling_suggestion}` : '';
          return `${title}: ${detail.query_length} characters, ${found}${suggested}`;
        })
        .sort();
    await expect
      .poll(
        async () => {
          stored = await inspectSession(request, sessionId);
          return searches();
        },
        { timeout: 30_000 },
      )
      .toEqual([
        `search: ${corrected.length} characters, found`,
        'search: 4 characters, nothing',
        'zero-result search: 4 characters, nothing, suggestion true',
      ]);
    // Never the query's text: in the actions, nor in the views' addresses.
    expect(JSON.stringify(stored!.timeline)).not.toContain('sofe');
  });

  test('filters narrow a listing with counts that match, and survive a reload and a shared link', async ({
    page,
    browser,
    request,
  }) => {
    const listing = async (query: string) => {
      const response = await request.get(
        `${API_URL}/departments/sofas/products${query}${query ? '&' : '?'}limit=48`,
      );
      expect(response.status()).toBe(200);
      return (await response.json()) as ProductPage;
    };
    // The page shows the api's answer for the same view. (The address changes before React
    // renders the new page, so the cards are polled.)
    const expectShows = async (view: Page, expected: ProductPage) => {
      await expect
        .poll(() => cardNames(view))
        .toEqual(expected.products.map((product) => product.name));
      await expect(productCount(view)).toHaveText(
        `${expected.total} product${expected.total === 1 ? '' : 's'}`,
      );
    };
    await page.goto('/department/sofas');
    await startupDone(page);
    await expectShows(page, await listing(''));
    expect((await listing('')).total).toBe(SOFAS.length);

    // A colour chip's count is the number of products choosing it shows.
    const colourLabel = await page
      .getByTestId('filter-colour')
      .locator('label')
      .first()
      .textContent();
    const [colour, colourCount] = /^(\w+) \((\d+)\)$/.exec(colourLabel!.trim())!.slice(1);
    await page.getByTestId('filter-colour').getByRole('checkbox').first().check();
    await expect(page).toHaveURL(`/department/sofas?colour=${colour}`);
    const byColour = await listing(`?colour=${colour}`);
    expect(byColour.total).toBe(Number(colourCount));
    expect(byColour.total).toBeLessThan(SOFAS.length);
    await expectShows(page, byColour);

    // So is the in-stock count, with the colour applied.
    const stock = page.getByTestId('filter-stock');
    const inStockCount = Number((await stock.textContent())?.match(/\((\d+)\)/)?.[1]);
    await stock.getByRole('checkbox', { name: /In stock/ }).check();
    await expect(page).toHaveURL(`/department/sofas?colour=${colour}&inStock=true`);
    const inStock = await listing(`?colour=${colour}&inStock=true`);
    expect(inStock.total).toBe(inStockCount);
    await expectShows(page, inStock);

    // Combined with a sort.
    await page.getByLabel('Sort by').selectOption('price-desc');
    await expect(page).toHaveURL(`/department/sofas?colour=${colour}&inStock=true&sort=price-desc`);
    const sorted = await listing(`?colour=${colour}&inStock=true&sort=price-desc`);
    await expectShows(page, sorted);
    const prices = sorted.products.map((product) => product.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));

    // A price range in dollars lands in the address in cents.
    const maxDollars = Math.floor(prices[0]! / 100) - 1;
    await page.getByLabel('Max price ($)').fill(String(maxDollars));
    await page.getByLabel('Max price ($)').press('Enter');
    const query = `?maxPrice=${maxDollars * 100}&colour=${colour}&inStock=true&sort=price-desc`;
    await expect(page).toHaveURL(`/department/sofas${query}`);
    const expected = await listing(query);
    expect(expected.total).toBeLessThan(sorted.total);
    const shown = async (view: Page) => {
      await expectShows(view, expected);
      await expect(
        view.getByTestId('filter-colour').getByRole('checkbox', { name: new RegExp(`^${colour}`) }),
      ).toBeChecked();
      await expect(view.getByTestId('filter-stock').getByRole('checkbox')).toBeChecked();
      await expect(view.getByTestId('filter-stock')).toContainText(`(${expected.facets.inStock})`);
      await expect(view.getByLabel('Sort by')).toHaveValue('price-desc');
      await expect(view.getByLabel('Max price ($)')).toHaveValue(String(maxDollars));
    };
    await shown(page);

    await page.reload();
    await shown(page);

    const shared = await browser.newContext();
    try {
      const other = await shared.newPage();
      await other.goto(page.url());
      await shown(other);
    } finally {
      await shared.close();
    }

    await page.getByTestId('clear-filters').click();
    await expect(page).toHaveURL('/department/sofas?sort=price-desc');
    await expectShows(page, await listing('?sort=price-desc'));
  });

  test('filters narrow search results too, and a chosen filter stays when nothing matches it', async ({
    page,
  }) => {
    await page.goto('/search?q=table');
    await startupDone(page);
    const total = Number((await productCount(page).textContent())?.match(/\d+/)?.[0]);
    const materials = page.getByTestId('filter-material');
    const label = (await materials.locator('label').first().textContent())!.trim();
    const [material, count] = /^(.+) \((\d+)\)$/.exec(label)!.slice(1);
    await materials.getByRole('checkbox').first().check();
    await expect(page).toHaveURL(`/search?q=table&material=${encodeURIComponent(material!)}`);
    await expect(productCount(page)).toHaveText(`${count} product${count === '1' ? '' : 's'}`);
    expect(Number(count)).toBeLessThanOrEqual(total);

    // A price range under every price: nothing matches, the chosen material stays chosen.
    await page.getByLabel('Max price ($)').fill('1');
    await page.getByLabel('Max price ($)').press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No results for “table”');
    const chosen = page
      .getByTestId('filter-material')
      .getByRole('checkbox', { name: `${material} (0)` });
    await expect(chosen).toBeChecked();
    await expect(page.getByTestId('zero-results')).toContainText('clear the filters');
  });

  test('search on PostgreSQL: the same searches through a web server and api on a fresh database', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // The e2e web server renders with its own api on SQLite. A second api on a fresh PostgreSQL
    // database and a second web server in front of it (its server rendering and its /api proxy
    // use that api) run the very pages the SQLite test runs: nothing of this test reaches SQLite.
    const database = await createPostgresDatabase('search');
    try {
      const api = await startSecondApi(PG_API_PORT, `http://localhost:${WEB_PORT}`, {
        databaseUrl: database.url,
      });
      try {
        expect(api.logLines()).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              msg: 'database ready',
              database: expect.stringMatching(/^postgres/),
            }),
          ]),
        );
        const web = await startSecondWeb(PG_WEB_PORT, api.url);
        try {
          await expectDescriptionAndPrefixSearch(page, web.url);
          // Suggestions: the browser's call goes through that web server to the PostgreSQL api.
          await page.goto(`${web.url}/`);
          await startupDone(page);
          const answered = page.waitForResponse(
            (response) =>
              response.url() === `${web.url}/api/search/suggestions?q=sof` && response.ok(),
          );
          await searchBox(page).pressSequentially('sof');
          await answered;
          await expect(page.getByRole('option').first()).toHaveText(/^sof/);
          await page.close();
        } finally {
          await web.stop();
        }
      } finally {
        await api.stop();
      }
    } finally {
      await database.drop();
    }
  });
});
