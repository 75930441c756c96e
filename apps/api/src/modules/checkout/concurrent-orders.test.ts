import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createSeedProduct } from '../../test/factories.js';
import {
  countRows,
  createOrderRequest,
  createShopperAgent,
  getStock,
} from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { seedCatalog } from '../catalog/seed.js';

const STOCK = 50;
const SHOPPERS = 200;

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, {
    departments: [{ slug: 'tables', name: 'Tables', description: 'Tables.' }],
    products: [createSeedProduct({ id: 1, name: 'Last Oak Table', stock: STOCK })],
  });
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('concurrent checkouts', () => {
  it(`sells exactly ${STOCK} units to ${SHOPPERS} shoppers ordering at once`, async () => {
    // Each shopper has its own session with one unit in the cart (adding checks, not reserves).
    const shoppers = Array.from({ length: SHOPPERS }, () => createShopperAgent(app));
    const added = await Promise.all(
      shoppers.map((shopper) => shopper.post('/cart/items', { productId: 1, edition: 'standard' })),
    );
    expect(added.every((res) => res.statusCode === 200)).toBe(true);
    expect(new Set(shoppers.map((shopper) => shopper.cookie)).size).toBe(SHOPPERS);

    const results = await Promise.all(
      shoppers.map((shopper) => shopper.post('/checkout/orders', createOrderRequest())),
    );

    const byStatus = new Map<number, number>();
    for (const res of results)
      byStatus.set(res.statusCode, (byStatus.get(res.statusCode) ?? 0) + 1);
    expect(Object.fromEntries(byStatus)).toEqual({ 201: STOCK, 409: SHOPPERS - STOCK });
    for (const res of results.filter((r) => r.statusCode === 409)) {
      expect(res.json()).toMatchObject({
        error: { code: 'OUT_OF_STOCK', message: '"Last Oak Table" is out of stock' },
      });
    }

    const db = testDb.database.db;
    expect(await getStock(db, 1, 'standard')).toBe(0);
    expect(await countRows(db, 'orders')).toBe(STOCK);
    expect(await countRows(db, 'payments')).toBe(STOCK);
    // Winners' carts are empty; the others keep their line to try again later.
    expect(await countRows(db, 'cart_lines')).toBe(SHOPPERS - STOCK);
  });
});
