import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createCatalogSeed } from '../../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { seedCatalog } from './seed.js';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('GET /departments', () => {
  it('lists departments in shop order with product counts', async () => {
    const res = await app.inject({ method: 'GET', url: '/departments' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      departments: [
        { slug: 'tables', name: 'Tables', description: 'Tables for every room.', productCount: 4 },
        { slug: 'chairs', name: 'Chairs', description: 'Seats for every table.', productCount: 1 },
        { slug: 'empty', name: 'Empty', description: expect.any(String), productCount: 0 },
      ],
    });
  });
});

describe('GET /departments/:slug/products', () => {
  const names = async (query: string) => {
    const res = await app.inject({ method: 'GET', url: `/departments/tables/products${query}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { products: { name: string }[] }).products.map((p) => p.name);
  };

  it('sorts by price and by name', async () => {
    expect(await names('?sort=price-asc')).toEqual([
      'Cedar Console',
      'Birch Desk',
      'Alder Table',
      'Oak Dining Table',
    ]);
    expect(await names('?sort=price-desc')).toEqual([
      'Oak Dining Table',
      'Alder Table',
      'Birch Desk',
      'Cedar Console',
    ]);
    expect(await names('?sort=name-asc')).toEqual([
      'Alder Table',
      'Birch Desk',
      'Cedar Console',
      'Oak Dining Table',
    ]);
    expect(await names('?sort=name-desc')).toEqual([
      'Oak Dining Table',
      'Cedar Console',
      'Birch Desk',
      'Alder Table',
    ]);
  });

  it('pages with limit and offset and reports the total', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/departments/tables/products?sort=name-asc&limit=2&offset=1',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { products: { name: string }[]; total: number; limit: number };
    expect(body.products.map((p) => p.name)).toEqual(['Birch Desk', 'Cedar Console']);
    expect(body.total).toBe(4);
    expect(body.limit).toBe(2);
  });

  it('gives each summary its price in cents and its special edition', async () => {
    const res = await app.inject({ method: 'GET', url: '/departments/chairs/products' });
    const body = res.json() as { products: unknown[] };
    expect(body.products).toEqual([
      expect.objectContaining({
        id: 20,
        department: 'chairs',
        priceCents: 10_020,
        materials: ['oak', 'steel'],
        specialEdition: { priceCents: 20_020, badge: 'Limited edition', stock: 3 },
      }),
    ]);
  });

  it('answers an empty page for a department without products', async () => {
    const res = await app.inject({ method: 'GET', url: '/departments/empty/products' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ products: [], total: 0 });
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=49', 'limit'],
    ['?limit=ten', 'limit'],
    ['?offset=-1', 'offset'],
    ['?sort=cheapest', 'sort'],
  ])('rejects %s with a 400 naming the field', async (query, field) => {
    const res = await app.inject({ method: 'GET', url: `/departments/tables/products${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field } });
  });

  it('answers 404 JSON for an unknown department', async () => {
    const res = await app.inject({ method: 'GET', url: '/departments/nope/products' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Department "nope" not found' },
    });
  });

  it('rejects a malformed slug with a 400 naming the field', async () => {
    const res = await app.inject({ method: 'GET', url: '/departments/NO%20PE/products' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { field: 'slug' } });
  });
});

describe('GET /products/:id', () => {
  it('answers the product with materials, dimensions and special edition', async () => {
    const res = await app.inject({ method: 'GET', url: '/products/10' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: 10,
      department: 'tables',
      name: 'Oak Dining Table',
      kind: 'dining-table',
      description: 'A sturdy test product.',
      priceCents: 90_000,
      stock: 10,
      colour: '#a47551',
      materials: ['oak', 'steel'],
      dimensions: { widthCm: 120, depthCm: 80, heightCm: 75 },
      specialEdition: {
        name: 'Test product 10 — Special',
        description: 'Limited run.',
        priceCents: 20_010,
        badge: 'Limited edition',
        stock: 3,
      },
    });
  });

  it('answers 404 for a product that does not exist', async () => {
    const res = await app.inject({ method: 'GET', url: '/products/9999' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it.each(['abc', '0', '-3', '1.5', '99999999999'])('rejects id %s with a 400', async (id) => {
    const res = await app.inject({ method: 'GET', url: `/products/${id}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field: 'id' } });
  });
});

describe('api errors and docs', () => {
  it('answers unknown routes with 404 JSON', async () => {
    const res = await app.inject({ method: 'GET', url: '/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Route GET /nope not found' },
    });
  });

  it('reports a healthy database', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: { ok: true } });
  });

  it('describes every api route in the OpenAPI document', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, unknown> };
    const routes = app.printRoutes({ commonPrefix: false });
    for (const path of [
      '/departments',
      '/departments/{slug}/products',
      '/products/{id}',
      '/search',
      '/search/suggestions',
      '/health',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    expect(routes).toContain('departments');
  });
});
