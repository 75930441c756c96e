import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createCatalogSeed } from '../../test/factories.js';
import {
  createOrderRequest,
  createSampleShopper,
  createShopperAgent,
  createTestShopperDirectory,
  setStock,
  type ShopperAgent,
} from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { seedCatalog } from '../catalog/seed.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from '../flags/definitions.js';
import { createFlagsRepository } from '../flags/repository.js';
import type { Order } from '@showroom/contracts/orders';
import { createFreeShippingThreshold, FREE_SHIPPING_THRESHOLD_FLAG } from './free-shipping.js';
import { FREE_SHIPPING_THRESHOLD_CENTS, SHIPPING_RATES_CENTS } from './pricing.js';
import type { Cart } from '@showroom/contracts/cart';

// The default flag (apps/api/flags/checkout.json): 250.00 for the sales team, else 500.00.
const SALES_THRESHOLD = 25_000;
const STANDARD_THRESHOLD = 50_000;

let testDb: TestDatabase;
let app: FastifyInstance;
let browser: ShopperAgent;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  await createFlagsRepository(testDb.database.db).syncDefinitions(
    await readFlagDefinitions(DEFAULT_FLAGS_PATH),
  );
  app = await buildApp({
    database: testDb.database,
    shopperDirectory: createTestShopperDirectory({
      standard: [
        createSampleShopper({ id: 'aaaa0001', team: 'design' }),
        createSampleShopper({ id: 'aaaa0002', team: 'sales' }),
      ],
    }),
  });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

beforeEach(async () => {
  browser = createShopperAgent(app);
  await setStock(testDb.database.db, 1, 'standard', 10);
});

const setFlagEnabled = (enabled: boolean) =>
  app.inject({
    method: 'PATCH',
    url: `/flags/${FREE_SHIPPING_THRESHOLD_FLAG}`,
    headers: { 'x-operator': 'free-shipping test' },
    payload: { enabled },
  });

// Product 1 "Birch Desk" is 300.00: above the sales threshold, below the standard one.
describe('free-shipping threshold from the flag service', () => {
  it("uses the shop's constant for an anonymous session", async () => {
    const cart = (
      await browser.post('/cart/items', { productId: 1, edition: 'standard' })
    ).json<Cart>();
    expect(cart).toMatchObject({
      freeShippingThresholdCents: FREE_SHIPPING_THRESHOLD_CENTS,
      freeShipping: false,
      shippingCents: SHIPPING_RATES_CENTS.US,
    });
  });

  it("uses the flag's value for the bound shopper's team", async () => {
    await browser.put('/session/shopper', { shopperId: 'aaaa0001' });
    const standard = (
      await browser.post('/cart/items', { productId: 1, edition: 'standard' })
    ).json<Cart>();
    expect(standard).toMatchObject({
      freeShippingThresholdCents: STANDARD_THRESHOLD,
      freeShipping: false,
      totalCents: 30_000 + SHIPPING_RATES_CENTS.US,
    });

    const sales = createShopperAgent(app);
    await sales.put('/session/shopper', { shopperId: 'aaaa0002' });
    const reduced = (
      await sales.post('/cart/items', { productId: 1, edition: 'standard' })
    ).json<Cart>();
    expect(reduced).toMatchObject({
      freeShippingThresholdCents: SALES_THRESHOLD,
      freeShipping: true,
      shippingCents: 0,
      totalCents: 30_000,
    });
  });

  it('prices the order with the same threshold as the cart', async () => {
    await browser.put('/session/shopper', { shopperId: 'aaaa0002' });
    await browser.post('/cart/items', { productId: 1, edition: 'standard' });
    const res = await browser.post('/checkout/orders', createOrderRequest());
    expect(res.statusCode).toBe(201);
    expect(res.json<Order>()).toMatchObject({ subtotalCents: 30_000, shippingCents: 0 });
  });

  it('falls back to the constant when an operator turns the flag off', async () => {
    expect((await setFlagEnabled(false)).statusCode).toBe(200);
    try {
      await browser.put('/session/shopper', { shopperId: 'aaaa0002' });
      const cart = (
        await browser.post('/cart/items', { productId: 1, edition: 'standard' })
      ).json<Cart>();
      expect(cart).toMatchObject({
        freeShippingThresholdCents: FREE_SHIPPING_THRESHOLD_CENTS,
        freeShipping: false,
      });
    } finally {
      await setFlagEnabled(true);
    }
  });
});

describe('createFreeShippingThreshold', () => {
  const shopper = {
    id: 'aaaa0001',
    list: 'standard' as const,
    name: 'Ada',
    email: 'ada@example.com',
    team: 'sales',
    useDiscount: false,
    useNewCheckoutFlow: false,
    loyaltyMember: false,
    tier: 'none' as const,
  };

  it('evaluates the flag for the shopper under the browser context names', async () => {
    const seen: unknown[] = [];
    const threshold = createFreeShippingThreshold((key, subject) => {
      seen.push({ key, subject });
      return Promise.resolve(12_345);
    });
    expect(await threshold(shopper, 'Firefox')).toBe(12_345);
    expect(seen).toEqual([
      {
        key: FREE_SHIPPING_THRESHOLD_FLAG,
        subject: {
          targetingKey: 'aaaa0001',
          attributes: {
            browser: 'Firefox',
            user_id: 'aaaa0001',
            user_name: 'Ada',
            user_email: 'ada@example.com',
            team: 'sales',
            useDiscount: false,
            useNewCheckoutFlow: false,
            tier: 'none',
            loyaltyMember: false,
          },
        },
      },
    ]);
  });

  it.each([undefined, -1, 12.5, '25000', null])(
    'answers the constant when the flag gives %j',
    async (value) => {
      const threshold = createFreeShippingThreshold(() => Promise.resolve(value));
      expect(await threshold(shopper, 'Chrome')).toBe(FREE_SHIPPING_THRESHOLD_CENTS);
    },
  );

  it('answers the constant without a flag service or a bound shopper', async () => {
    expect(await createFreeShippingThreshold()(shopper, 'Chrome')).toBe(
      FREE_SHIPPING_THRESHOLD_CENTS,
    );
    const never = createFreeShippingThreshold(() => Promise.reject(new Error('not called')));
    expect(await never(null, 'Chrome')).toBe(FREE_SHIPPING_THRESHOLD_CENTS);
  });
});
