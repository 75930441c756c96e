import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createCatalogSeed } from '../../test/factories.js';
import { createRecordingTracer, type RecordedSpan } from '../../test/recording-tracer.js';
import {
  countRows,
  createCardPayment,
  createOrderRequest,
  createSampleShopper,
  createShopperAgent,
  createTestShopperDirectory,
  getStock,
  setStock,
  type ShopperAgent,
} from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { CART_QUERY_SPAN } from '../cart/repository.js';
import { seedCatalog } from '../catalog/seed.js';
import {
  DEFAULT_FLAGS_PATH,
  readFlagDefinitions,
  type FlagDefinitions,
} from '../flags/definitions.js';
import { createFlagsRepository } from '../flags/repository.js';
import { FAULT_DECLINE_REASON } from '../checkout/place-order.js';
import { checkFaultValue } from './request-faults.js';
import type { Cart } from '@showroom/contracts/cart';
import type { Product, ProductPage, RecommendationCandidates } from '@showroom/contracts/catalog';
import type { ErrorResponse } from '@showroom/contracts/errors';
import {
  FAULT_ALLOCATION_KEY,
  FAULT_FLAG_KEYS,
  IMAGE_DELAY_MAX_MS,
  MAX_FAULT_LATENCY_MS,
  type FaultFlagKey,
} from '@showroom/contracts/faults';
import type { SearchResults } from '@showroom/contracts/search';

// Fault flags (docs/decisions/010-fault-flags.md): evaluated by the flag service for the shopper
// of each request, switched and aimed with the operator routes, visible on the request's span.

/** A latency the tests can measure without waiting long. */
const LATENCY_MS = 200;
const DESIGNER = 'aaaa0001';
const SELLER = 'aaaa0002';

let testDb: TestDatabase;
let app: FastifyInstance;
let definitions: FlagDefinitions;
const { tracer, ended } = createRecordingTracer();

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  definitions = await readFlagDefinitions(DEFAULT_FLAGS_PATH);
  await createFlagsRepository(testDb.database.db).syncDefinitions(definitions);
  app = await buildApp({
    database: testDb.database,
    tracer,
    shopperDirectory: createTestShopperDirectory({
      standard: [
        createSampleShopper({ id: DESIGNER, team: 'design' }),
        createSampleShopper({ id: SELLER, team: 'sales' }),
      ],
    }),
  });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

afterEach(async () => {
  // Back to the file's values; operator changes survive a load of an unchanged definition, so
  // every fault is also switched off and aimed at everyone again.
  await createFlagsRepository(testDb.database.db).syncDefinitions(definitions, 'faults test');
  for (const key of FAULT_FLAG_KEYS) {
    await operator('PATCH', `/flags/${key}`, { enabled: false });
    await operator('PUT', `/flags/${key}/rules`, {
      allocationKey: FAULT_ALLOCATION_KEY,
      rules: [],
    });
  }
});

/** Serves `value` as the fault's variation (the file's definitions otherwise) and enables it. */
async function serveFault(key: FaultFlagKey, value: number | boolean): Promise<void> {
  const changed = {
    ...definitions,
    flags: definitions.flags.map((flag) =>
      flag.key === key
        ? { ...flag, variations: { ...flag.variations, fault: { key: 'fault', value } } }
        : flag,
    ),
  };
  await createFlagsRepository(testDb.database.db).syncDefinitions(changed, 'faults test');
  await operator('PATCH', `/flags/${key}`, { enabled: true });
}

async function operator(method: 'PATCH' | 'PUT', url: string, payload: object): Promise<void> {
  const res = await app.inject({
    method,
    url,
    payload,
    headers: { 'x-operator': 'faults test' },
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
}

/** Aims the fault at one team with a rule on its `fault-on` allocation. */
const aimAtTeam = (key: FaultFlagKey, team: string) =>
  operator('PUT', `/flags/${key}/rules`, {
    allocationKey: FAULT_ALLOCATION_KEY,
    rules: [{ conditions: [{ attribute: 'team', operator: 'ONE_OF', value: [team] }] }],
  });

/** The server span of the last request to `route`. */
function lastSpan(route: string): RecordedSpan {
  const span = ended.findLast((candidate) => candidate.route === route);
  if (!span) throw new Error(`no span for ${route}`);
  return span;
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

async function shopperAgent(shopperId: string): Promise<ShopperAgent> {
  const agent = createShopperAgent(app);
  expect((await agent.put('/session/shopper', { shopperId })).statusCode).toBe(200);
  return agent;
}

describe('fault flags off (the file as shipped)', () => {
  it('change no answer and put nothing on the spans', async () => {
    const agent = await shopperAgent(DESIGNER);
    const product = await agent.get('/products/1');
    expect(product.statusCode).toBe(200);
    expect(product.json<Product>()).not.toHaveProperty('imageHint');
    expect(lastSpan('/products/:id').attributes).not.toHaveProperty('fault.flag');

    const listing = (await agent.get('/departments/tables/products')).json<ProductPage>();
    expect(listing.products.length).toBeGreaterThan(0);
    expect(listing.products.every((p) => p.imageHint === undefined)).toBe(true);

    const recommendations = await agent.get('/products/1/recommendations');
    expect(recommendations.statusCode).toBe(200);

    expect((await agent.get('/cart')).statusCode).toBe(200);
    const cartSpan = lastSpan('/cart');
    expect(cartSpan.attributes).not.toHaveProperty('fault.flag');
    expect(cartSpan.children.map((child) => child.name)).toEqual([CART_QUERY_SPAN]);
    expect(cartSpan.children[0]?.attributes).not.toHaveProperty('fault.flag');

    await setStock(testDb.database.db, 1, 'standard', 10);
    await agent.post('/cart/items', { productId: 1, edition: 'standard' });
    expect((await agent.post('/checkout/orders', createOrderRequest())).statusCode).toBe(201);
    expect(lastSpan('/checkout/orders').errors).toEqual([]);
  });

  it('are each served off by the flag service while disabled', async () => {
    const flags = await createFlagsRepository(testDb.database.db).listFlags();
    const faults = flags.filter((stored) => stored.flag.key.startsWith('fault_'));
    expect(faults.map((stored) => stored.flag.key).sort()).toEqual([...FAULT_FLAG_KEYS].sort());
    expect(faults.every((stored) => !stored.flag.enabled)).toBe(true);
  });
});

describe('fault_product_api_latency_ms', () => {
  it('delays the product and department listing answers once enabled', async () => {
    await serveFault('fault_product_api_latency_ms', LATENCY_MS);
    const agent = await shopperAgent(DESIGNER);

    const product = await timed(() => agent.get('/products/1'));
    expect(product.result.statusCode).toBe(200);
    expect(product.ms).toBeGreaterThanOrEqual(LATENCY_MS);
    expect(lastSpan('/products/:id').attributes).toMatchObject({
      'fault.flag': 'fault_product_api_latency_ms',
      'fault.value': LATENCY_MS,
      'usr.id': DESIGNER,
    });

    const listing = await timed(() => agent.get('/departments/tables/products'));
    expect(listing.result.statusCode).toBe(200);
    expect(listing.ms).toBeGreaterThanOrEqual(LATENCY_MS);
    expect(lastSpan('/departments/:slug/products').attributes).toMatchObject({
      'fault.flag': 'fault_product_api_latency_ms',
      'fault.value': LATENCY_MS,
    });
  });

  it('applies to anonymous requests too while it is aimed at everyone', async () => {
    await serveFault('fault_product_api_latency_ms', LATENCY_MS);
    const anonymous = await timed(() => app.inject({ method: 'GET', url: '/products/2' }));
    expect(anonymous.ms).toBeGreaterThanOrEqual(LATENCY_MS);
    expect(anonymous.result.cookies).toEqual([]);
  });

  it("hits only the team a rule aims it at, through the shopper's session", async () => {
    await serveFault('fault_product_api_latency_ms', LATENCY_MS);
    await aimAtTeam('fault_product_api_latency_ms', 'sales');

    const seller = await shopperAgent(SELLER);
    const slow = await timed(() => seller.get('/products/1'));
    expect(slow.ms).toBeGreaterThanOrEqual(LATENCY_MS);
    expect(lastSpan('/products/:id').attributes).toMatchObject({
      'fault.flag': 'fault_product_api_latency_ms',
      'usr.id': SELLER,
    });

    const designer = await shopperAgent(DESIGNER);
    expect((await designer.get('/products/1')).statusCode).toBe(200);
    const span = lastSpan('/products/:id');
    expect(span.attributes).toMatchObject({ 'usr.id': DESIGNER });
    expect(span.attributes).not.toHaveProperty('fault.flag');
    // No session, no team: the rule lets nobody anonymous in.
    await app.inject({ method: 'GET', url: '/products/1' });
    expect(lastSpan('/products/:id').attributes).not.toHaveProperty('fault.flag');
  });
});

describe('fault_payment_decline_percent', () => {
  beforeEach(async () => {
    await setStock(testDb.database.db, 1, 'standard', 10);
  });

  it('at 100 declines every order: 402 CARD_DECLINED, nothing stored, charged or taken', async () => {
    await serveFault('fault_payment_decline_percent', 100);
    const agent = await shopperAgent(DESIGNER);
    await agent.post('/cart/items', { productId: 1, edition: 'standard', quantity: 2 });
    const before = {
      orders: await countRows(testDb.database.db, 'orders'),
      payments: await countRows(testDb.database.db, 'payments'),
      cards: await countRows(testDb.database.db, 'payment_methods'),
    };

    for (const saveCard of [false, true]) {
      const res = await agent.post(
        '/checkout/orders',
        createOrderRequest({ payment: createCardPayment({ saveCard }) }),
      );
      expect(res.statusCode).toBe(402);
      expect(res.json<ErrorResponse>().error.code).toBe('CARD_DECLINED');
      const span = lastSpan('/checkout/orders');
      expect(span.attributes).toMatchObject({
        'fault.flag': 'fault_payment_decline_percent',
        'fault.value': 100,
      });
      expect(span.errors).toEqual([
        {
          type: 'CardDeclinedError',
          message: FAULT_DECLINE_REASON,
          attributes: {
            'fault.flag': 'fault_payment_decline_percent',
            'fault.value': 100,
            'payment.decline_reason': FAULT_DECLINE_REASON,
          },
        },
      ]);
    }

    expect(await countRows(testDb.database.db, 'orders')).toBe(before.orders);
    expect(await countRows(testDb.database.db, 'payments')).toBe(before.payments);
    expect(await countRows(testDb.database.db, 'payment_methods')).toBe(before.cards);
    expect(await getStock(testDb.database.db, 1, 'standard')).toBe(10);
    expect((await agent.get('/cart')).json<Cart>().itemCount).toBe(2);
  });

  it('at 0 declines none', async () => {
    await serveFault('fault_payment_decline_percent', 0);
    const agent = await shopperAgent(DESIGNER);
    for (let order = 0; order < 3; order += 1) {
      await agent.post('/cart/items', { productId: 1, edition: 'standard' });
      expect((await agent.post('/checkout/orders', createOrderRequest())).statusCode).toBe(201);
      const span = lastSpan('/checkout/orders');
      expect(span.attributes).not.toHaveProperty('fault.flag');
      expect(span.errors).toEqual([]);
    }
  });

  it('at 50 declines some orders and places others, drawn per order', async () => {
    await serveFault('fault_payment_decline_percent', 50);
    await setStock(testDb.database.db, 1, 'standard', 100);
    const agent = await shopperAgent(DESIGNER);
    const statuses: number[] = [];
    // 20 draws: all alike has a chance of 2 in a million.
    for (let order = 0; order < 20; order += 1) {
      await agent.post('/cart/items', { productId: 1, edition: 'standard' });
      statuses.push((await agent.post('/checkout/orders', createOrderRequest())).statusCode);
    }
    expect(statuses).toContain(402);
    expect(statuses).toContain(201);
    expect(statuses.every((status) => status === 201 || status === 402)).toBe(true);
  });

  it('declines only the team a rule aims it at', async () => {
    await serveFault('fault_payment_decline_percent', 100);
    await aimAtTeam('fault_payment_decline_percent', 'sales');
    const seller = await shopperAgent(SELLER);
    await seller.post('/cart/items', { productId: 1, edition: 'standard' });
    expect((await seller.post('/checkout/orders', createOrderRequest())).statusCode).toBe(402);
    const designer = await shopperAgent(DESIGNER);
    await designer.post('/cart/items', { productId: 1, edition: 'standard' });
    expect((await designer.post('/checkout/orders', createOrderRequest())).statusCode).toBe(201);
  });
});

describe('product image faults', () => {
  it('fault_slow_product_images_ms gives every product answer a delay hint', async () => {
    await serveFault('fault_slow_product_images_ms', 1500);
    const agent = await shopperAgent(DESIGNER);
    const hint = { base: '/img-slow/1500/', delayMs: 1500 };
    expect((await agent.get('/products/1')).json<Product>().imageHint).toEqual(hint);
    expect(lastSpan('/products/:id').attributes).toMatchObject({
      'fault.flag': 'fault_slow_product_images_ms',
      'fault.value': 1500,
    });
    const listing = (await agent.get('/departments/tables/products')).json<ProductPage>();
    expect(listing.products.map((p) => p.imageHint)).toEqual(listing.products.map(() => hint));
    const candidates = (
      await agent.get('/products/1/recommendations')
    ).json<RecommendationCandidates>();
    expect(candidates.products.length).toBeGreaterThan(0);
    expect(candidates.products.every((p) => p.imageHint?.delayMs === 1500)).toBe(true);
    const found = (await agent.get('/search?q=table')).json<SearchResults>();
    expect(found.products.length).toBeGreaterThan(0);
    expect(found.products.every((p) => p.imageHint?.delayMs === 1500)).toBe(true);
  });

  it('fault_broken_product_images gives a broken hint, with the delay when both are on', async () => {
    await serveFault('fault_broken_product_images', true);
    const agent = await shopperAgent(DESIGNER);
    expect((await agent.get('/products/1')).json<Product>().imageHint).toEqual({
      base: '/img/missing/',
      broken: true,
    });
    await serveFault('fault_slow_product_images_ms', 800);
    expect((await agent.get('/products/1')).json<Product>().imageHint).toEqual({
      base: '/img-slow/800/missing/',
      delayMs: 800,
      broken: true,
    });
    expect(lastSpan('/products/:id').attributes).toMatchObject({
      'fault.flag': 'fault_slow_product_images_ms,fault_broken_product_images',
      'fault.value': '800,true',
      'fault.fault_slow_product_images_ms': 800,
      'fault.fault_broken_product_images': true,
    });
  });

  it('caps an image delay at what the web server honours', async () => {
    await serveFault('fault_slow_product_images_ms', IMAGE_DELAY_MAX_MS * 3);
    const agent = await shopperAgent(DESIGNER);
    expect((await agent.get('/products/1')).json<Product>().imageHint).toEqual({
      base: `/img-slow/${IMAGE_DELAY_MAX_MS}/`,
      delayMs: IMAGE_DELAY_MAX_MS,
    });
  });
});

describe('fault_recommendations_error', () => {
  it('answers the candidates of the same department without the product itself', async () => {
    const res = await app.inject({ method: 'GET', url: '/products/1/recommendations' });
    expect(res.statusCode).toBe(200);
    const ids = res.json<RecommendationCandidates>().products.map((p) => p.id);
    expect(ids).toEqual([2, 3, 10]);
    const unknown = await app.inject({ method: 'GET', url: '/products/999/recommendations' });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 503 with the error envelope, recorded on the span as an error', async () => {
    await serveFault('fault_recommendations_error', true);
    const agent = await shopperAgent(DESIGNER);
    const res = await agent.get('/products/1/recommendations');
    expect(res.statusCode).toBe(503);
    expect(res.json<ErrorResponse>()).toEqual({
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'Recommendations are not available right now',
      },
    });
    const span = lastSpan('/products/:id/recommendations');
    expect(span.statusCode).toBe(503);
    expect(span.attributes).toMatchObject({
      'fault.flag': 'fault_recommendations_error',
      'fault.value': true,
    });
    expect(span.errors).toMatchObject([
      { type: 'ApiError', attributes: { 'fault.flag': 'fault_recommendations_error' } },
    ]);
    // The product itself still loads.
    expect((await agent.get('/products/1')).statusCode).toBe(200);
  });
});

describe('fault_cart_query_latency_ms', () => {
  it("slows GET /cart's traced database query", async () => {
    await serveFault('fault_cart_query_latency_ms', LATENCY_MS);
    const agent = await shopperAgent(DESIGNER);
    const cart = await timed(() => agent.get('/cart'));
    expect(cart.result.statusCode).toBe(200);
    expect(cart.ms).toBeGreaterThanOrEqual(LATENCY_MS);
    const span = lastSpan('/cart');
    expect(span.attributes).toMatchObject({
      'fault.flag': 'fault_cart_query_latency_ms',
      'fault.value': LATENCY_MS,
    });
    const [query] = span.children;
    expect(query).toMatchObject({
      name: CART_QUERY_SPAN,
      attributes: {
        'db.collection.name': 'cart_lines',
        'fault.flag': 'fault_cart_query_latency_ms',
        'fault.value': LATENCY_MS,
      },
    });
    expect(query?.durationMs).toBeGreaterThanOrEqual(LATENCY_MS - 1);
    expect(query?.attributes['db.system.name']).toBe(
      process.env.TEST_DATABASE_URL ? 'postgresql' : 'sqlite',
    );
  });

  it('leaves the cart changes (POST, PATCH, DELETE) as fast as before', async () => {
    await serveFault('fault_cart_query_latency_ms', LATENCY_MS);
    const agent = await shopperAgent(DESIGNER);
    await setStock(testDb.database.db, 1, 'standard', 10);
    expect(
      (await agent.post('/cart/items', { productId: 1, edition: 'standard' })).statusCode,
    ).toBe(200);
    expect(lastSpan('/cart/items').attributes).not.toHaveProperty('fault.flag');
  });
});

describe('checkFaultValue', () => {
  it('keeps whole numbers up to the cap and turns anything else off', () => {
    expect(checkFaultValue('fault_product_api_latency_ms', 3000)).toBe(3000);
    expect(checkFaultValue('fault_product_api_latency_ms', MAX_FAULT_LATENCY_MS + 1)).toBe(
      MAX_FAULT_LATENCY_MS,
    );
    expect(checkFaultValue('fault_payment_decline_percent', 250)).toBe(100);
    expect(checkFaultValue('fault_payment_decline_percent', -5)).toBe(0);
    expect(checkFaultValue('fault_cart_query_latency_ms', 12.5)).toBe(0);
    expect(checkFaultValue('fault_cart_query_latency_ms', undefined)).toBe(0);
    expect(checkFaultValue('fault_broken_product_images', true)).toBe(true);
    expect(checkFaultValue('fault_broken_product_images', 'true')).toBe(false);
    expect(checkFaultValue('fault_recommendations_error', undefined)).toBe(false);
  });
});
