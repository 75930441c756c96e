import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createSearchCatalogSeed } from '../../test/factories.js';
import { createRecordingTracer } from '../../test/recording-tracer.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createSessionRepository } from '../session/repository.js';
import { seedCatalog } from './seed.js';
import type { ProductPage } from '@showroom/contracts/catalog';
import type { SearchResults, SearchSuggestions } from '@showroom/contracts/search';

// Runs on SQLite (FTS5) and, with TEST_DATABASE_URL, on PostgreSQL (tsvector): one repository,
// the same answers (docs/decisions/009-search.md).
let testDb: TestDatabase;
let app: FastifyInstance;
const { tracer, ended } = createRecordingTracer();

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createSearchCatalogSeed());
  app = await buildApp({ database: testDb.database, tracer });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

async function search(query: string): Promise<SearchResults> {
  const res = await app.inject({ method: 'GET', url: `/search?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const ids = (body: { products: { id: number }[] }) => body.products.map((p) => p.id);
const q = (text: string) => `q=${encodeURIComponent(text)}`;

describe('GET /search: matching', () => {
  it('finds a product by a word of its description', async () => {
    expect(ids(await search(q('evenings')))).toEqual([1]);
    expect(ids(await search(q('cable tray')))).toEqual([5]);
  });

  it('finds by a prefix of the last word: "sof" finds the sofas and what mentions one', async () => {
    const body = await search(q('sof'));
    expect(ids(body).sort()).toEqual([1, 2, 3, 8]);
    expect(body.total).toBe(4);
  });

  it('needs every word: "oak desk" is the desk built from oak, not the oak table or the lamp', async () => {
    expect(ids(await search(q('oak desk')))).toEqual([5]);
  });

  it('matches department, kind, colour name and material words', async () => {
    expect(ids(await search(q('lighting')))).toEqual(expect.arrayContaining([7, 8]));
    expect(ids(await search(q('armchair')))).toEqual([6]);
    expect(ids(await search(q('red lamp')))).toEqual([7]);
    expect(ids(await search(q('hardwood frame'))).sort()).toEqual([1, 3]);
  });

  it('ignores case and accents, and stems plurals', async () => {
    expect(ids(await search(q('BOUCLE')))).toEqual([6]);
    expect(ids(await search(q('bouclé')))).toEqual([6]);
    expect(ids(await search(q('tables dining')))).toEqual([4]);
  });

  it('ranks a name match above a material match above a description-only match', async () => {
    expect(ids(await search(q('oak')))).toEqual([4, 6, 5]);
    const sofas = ids(await search(q('sofa')));
    expect(sofas.slice(0, 2).sort()).toEqual([1, 3]);
    expect(sofas.at(-1)).toBe(8);
  });

  it('answers the query, paging and sort it used', async () => {
    const body = await search(`${q('sofa')}&limit=2&offset=1`);
    expect(body).toMatchObject({ query: 'sofa', total: 4, limit: 2, offset: 1, sort: 'relevance' });
    expect(body.products).toHaveLength(2);
    expect(body.products[0]).toEqual({
      id: expect.any(Number),
      department: expect.any(String),
      name: expect.any(String),
      kind: expect.any(String),
      priceCents: expect.any(Number),
      stock: expect.any(Number),
      colour: expect.stringMatching(/^#/),
      materials: expect.any(Array),
      specialEdition: expect.any(Object),
    });
  });
});

describe('GET /search: filters, sort and facets', () => {
  it('narrows by stock, price, colour and material, combined with sort', async () => {
    expect(ids(await search(`${q('sofa')}&inStock=true&sort=price-asc`))).toEqual([1, 3]);
    expect(ids(await search(`${q('sofa')}&inStock=true&sort=price-desc`))).toEqual([3, 1]);
    expect(ids(await search(`${q('sofa')}&maxPrice=130000&sort=price-asc`))).toEqual([8, 2, 1]);
    expect(ids(await search(`${q('sofa')}&minPrice=79900&maxPrice=79900`))).toEqual([2]);
    expect(ids(await search(`${q('sofa')}&colour=blue&colour=brown&sort=name-asc`))).toEqual([
      3, 2,
    ]);
    expect(ids(await search(`${q('sofa')}&material=hardwood%20frame&sort=featured`))).toEqual([
      1, 3,
    ]);
    expect(
      ids(await search(`${q('sofa')}&material=hardwood%20frame&colour=grey&inStock=true`)),
    ).toEqual([1]);
  });

  it('counts each facet with the other filters but not its own', async () => {
    const body = await search(`${q('sofa')}&inStock=true`);
    expect(body.total).toBe(2);
    expect(body.facets).toEqual({
      colours: [
        { value: 'brown', count: 1 },
        { value: 'grey', count: 1 },
      ],
      materials: [
        { value: 'hardwood frame', count: 2 },
        { value: 'full-grain leather', count: 1 },
        { value: 'linen blend', count: 1 },
      ],
      price: { min: 129_900, max: 249_900 },
      // Ignores inStock: two of the four sofa matches are in stock.
      inStock: 2,
    });

    const blue = await search(`${q('sofa')}&colour=blue`);
    expect(ids(blue)).toEqual([2]);
    expect(blue.facets).toEqual({
      // Ignores colour: every colour among the four matches.
      colours: [
        { value: 'beige', count: 1 },
        { value: 'blue', count: 1 },
        { value: 'brown', count: 1 },
        { value: 'grey', count: 1 },
      ],
      materials: [
        { value: 'beech frame', count: 1 },
        { value: 'cotton velvet', count: 1 },
      ],
      price: { min: 79_900, max: 79_900 },
      inStock: 0,
    });

    const cheap = await search(`${q('sofa')}&maxPrice=100000`);
    // Ignores the price range: the slider still spans every match.
    expect(cheap.facets.price).toEqual({ min: 34_900, max: 249_900 });
  });

  it.each([
    ['maxPrice=100&minPrice=200', 'maxPrice'],
    ['minPrice=-1', 'minPrice'],
    ['maxPrice=1.5', 'maxPrice'],
    ['colour=mauve', 'colour.0'],
    ['inStock=perhaps', 'inStock'],
    ['sort=cheapest', 'sort'],
    ['limit=49', 'limit'],
    [`material=${'x'.repeat(61)}`, 'material.0'],
  ])('rejects %s with a 400 naming %s', async (query, field) => {
    const res = await app.inject({ method: 'GET', url: `/search?q=sofa&${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field } });
  });
});

describe('GET /search: hostile and odd queries', () => {
  it.each([
    '"',
    '*',
    'NEAR(',
    'NEAR(sofa lamp, 2)',
    "'; drop table products; --",
    'sofa OR 1=1',
    'name:sofa',
    '^sofa',
    '-sofa',
    'sofa & !lamp | (chair',
    'sofa:*',
    '½ ² ⅓',
    '😀 sofa',
    '日本の椅子',
    '\\',
    '%_',
    'x'.repeat(100),
    ' '.repeat(10),
  ])('answers %j normally', async (text) => {
    const body = await search(q(text));
    expect(body.query).toBe(text);
    expect(body.total).toBe(body.products.length);
  });

  it('still finds the sofas in the words of a hostile query', async () => {
    expect(ids(await search(q('"sofa" (camden*')))).toEqual([3]);
    expect(ids(await search(q("sofa'; drop table products; --")))).toEqual([]);
    expect((await search(q('sofa'))).total).toBe(4);
  });

  it.each([
    ['q=', 'q'],
    [`q=${'x'.repeat(101)}`, 'q'],
    ['', 'q'],
  ])('rejects %j with a 400 naming q', async (query, field) => {
    const res = await app.inject({ method: 'GET', url: `/search?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field } });
  });
});

describe('GET /search: nothing found', () => {
  it('suggests the closest catalog word and offers popular products', async () => {
    const body = await search(q('sofe'));
    expect(body).toMatchObject({ total: 0, products: [], suggestion: 'sofa' });
    // In stock, in shop order while nothing has been ordered.
    expect(ids({ products: body.popular })).toEqual([1, 3, 4, 5]);
    expect((await search(q('chesterfeld'))).suggestion).toBe('chesterfield');
    expect((await search(q('velvet sofe'))).suggestion).toBe('velvet sofa');
  });

  it('suggests nothing when the corrected query would find nothing too', async () => {
    // "oak sofa": no product has both.
    expect((await search(q('oak sofe'))).suggestion).toBeNull();
    // Every word is a catalog word: nothing to correct.
    expect((await search(q('lamp sofa leather'))).suggestion).toBeNull();
    expect((await search(q('qqqqqq'))).suggestion).toBeNull();
  });

  it('checks the suggestion with the same filters', async () => {
    expect((await search(`${q('chesterfeld')}&maxPrice=1000`)).suggestion).toBeNull();
  });

  it('gives no suggestion and no popular products when something matched', async () => {
    expect(await search(q('sofa'))).toMatchObject({ suggestion: null, popular: [] });
  });

  it('offers the most ordered products first', async () => {
    const db = testDb.database.db;
    const now = new Date().toISOString();
    const session = await createSessionRepository(db).create(new Date());
    await db
      .insertInto('orders')
      .values({
        id: 'search-test-order',
        session_id: session.id,
        shopper_id: null,
        status: 'placed',
        currency: 'USD',
        subtotal_cents: 1,
        discount_cents: 0,
        shipping_cents: 0,
        total_cents: 1,
        shipping_name: 'A',
        shipping_email: 'a@example.com',
        shipping_address1: '1 Street',
        shipping_address2: null,
        shipping_city: 'City',
        shipping_postal_code: '1000',
        shipping_country: 'US',
        card_brand: 'visa',
        card_last4: '4242',
        instant_pay_variant: null,
        checkout_flow: null,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('order_lines')
      .values(
        [
          [7, 3],
          [5, 1],
          [2, 9], // out of stock: never offered
        ].map(([productId, quantity], position) => ({
          id: `search-test-line-${position}`,
          order_id: 'search-test-order',
          position,
          product_id: productId as number,
          edition: 'standard',
          name: 'x',
          unit_price_cents: 1,
          quantity: quantity as number,
          line_total_cents: 1,
        })),
      )
      .execute();
    expect(ids({ products: (await search(q('sofe'))).popular })).toEqual([7, 5, 1, 3]);
  });
});

describe('GET /search/suggestions', () => {
  async function suggest(text: string): Promise<SearchSuggestions> {
    const res = await app.inject({ method: 'GET', url: `/search/suggestions?${q(text)}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  it('completes the last word from the catalog words and lists matching products', async () => {
    const body = await suggest('so');
    expect(body.query).toBe('so');
    expect(body.terms[0]).toBe('sofa');
    expect(body.terms).toHaveLength(3);
    expect(body.products.map((p) => p.id)).toEqual(expect.arrayContaining([1, 3]));
    expect(body.terms.length + body.products.length).toBeLessThanOrEqual(8);
  });

  it('keeps the words before the last one', async () => {
    const body = await suggest('Dining ta');
    expect(body.terms).toContain('dining table');
    expect(body.products).toEqual([
      { id: 4, name: 'Fjord Oak Dining Table', department: 'tables' },
    ]);
  });

  it('answers empty lists when nothing starts that way', async () => {
    expect(await suggest('"*')).toEqual({ query: '"*', terms: [], products: [] });
    expect(await suggest('zzz')).toEqual({ query: 'zzz', terms: [], products: [] });
  });

  it('rejects an empty or too long query naming q', async () => {
    for (const url of ['/search/suggestions', `/search/suggestions?q=${'x'.repeat(101)}`]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { field: 'q' } });
    }
  });
});

describe('search spans', () => {
  it('sets the query length and result count on the request span', async () => {
    await search(q('sofa'));
    expect(ended.at(-1)).toMatchObject({
      route: '/search',
      statusCode: 200,
      attributes: {
        'search.query_length': 4,
        'search.result_count': 4,
        'search.zero_results': false,
      },
    });
  });

  it('marks a zero-result search', async () => {
    await search(q('no such thing'));
    expect(ended.at(-1)).toMatchObject({
      route: '/search',
      attributes: {
        'search.query_length': 13,
        'search.result_count': 0,
        'search.zero_results': true,
      },
    });
  });

  it('sets the query length and suggestion count for suggestions', async () => {
    await app.inject({ method: 'GET', url: '/search/suggestions?q=lamp' });
    expect(ended.at(-1)).toMatchObject({
      route: '/search/suggestions',
      attributes: { 'search.query_length': 4, 'search.suggestion_count': expect.any(Number) },
    });
  });
});

describe('GET /departments/:slug/products: filters and facets', () => {
  async function list(slug: string, query = ''): Promise<ProductPage> {
    const res = await app.inject({ method: 'GET', url: `/departments/${slug}/products${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  it('keeps its answer and adds the facets of the department', async () => {
    const body = await list('sofas');
    expect(body).toMatchObject({ total: 3, limit: 24, offset: 0, sort: 'featured' });
    expect(ids(body)).toEqual([1, 2, 3]);
    expect(body.facets).toEqual({
      colours: [
        { value: 'blue', count: 1 },
        { value: 'brown', count: 1 },
        { value: 'grey', count: 1 },
      ],
      materials: [
        { value: 'hardwood frame', count: 2 },
        { value: 'beech frame', count: 1 },
        { value: 'cotton velvet', count: 1 },
        { value: 'full-grain leather', count: 1 },
        { value: 'linen blend', count: 1 },
      ],
      price: { min: 79_900, max: 249_900 },
      inStock: 2,
    });
  });

  it('filters with the same parameters as search, combined with sort and paging', async () => {
    const body = await list('sofas', '?inStock=true&sort=price-desc&limit=1');
    expect(ids(body)).toEqual([3]);
    expect(body.total).toBe(2);
    expect(ids(await list('tables', '?material=steel&material=solid%20oak&sort=name-asc'))).toEqual(
      [4, 5],
    );
    expect(ids(await list('tables', '?colour=natural'))).toEqual([4]);
    expect(ids(await list('lighting', '?minPrice=20000'))).toEqual([8]);
  });

  it('answers an empty page with empty facets when nothing matches', async () => {
    const body = await list('sofas', '?colour=red');
    expect(body).toMatchObject({ products: [], total: 0 });
    expect(body.facets.colours.map((c) => c.value)).toEqual(['blue', 'brown', 'grey']);
    expect(body.facets.materials).toEqual([]);
    expect(body.facets.inStock).toBe(0);
  });

  it('rejects an upside-down price range naming maxPrice', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/departments/sofas/products?minPrice=500&maxPrice=100',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field: 'maxPrice' } });
  });
});
