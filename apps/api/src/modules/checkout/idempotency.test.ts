import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  countRows,
  createOrderRequest,
  createShippingAddress,
  createShopperAgent,
  createTestApp,
  getStock,
  setStock,
  type ShopperAgent,
  type TestApp,
} from '../../test/shop-factories.js';
import type { Order } from '@showroom/contracts/orders';
import { createSimulatedGateway, type PaymentGateway } from '../payments/gateway.js';
import { canonicalJson, requestFingerprint } from './idempotency.js';

let database: TestApp['database'];
let close: TestApp['close'];
let app: FastifyInstance;
let browser: ShopperAgent;
let charges = 0;

/** The simulated gateway, counting how often it is asked to charge. */
function createCountingGateway(): PaymentGateway {
  const gateway = createSimulatedGateway();
  return {
    ...gateway,
    charge: (request) => {
      charges += 1;
      return gateway.charge(request);
    },
  };
}

beforeAll(async () => {
  ({ app, database, close } = await createTestApp({ paymentGateway: createCountingGateway() }));
});

afterAll(() => close());

beforeEach(async () => {
  browser = createShopperAgent(app);
  await setStock(database.db, 1, 'standard', 10);
  await setStock(database.db, 3, 'standard', 10);
});

const placeOrder = (agent: ShopperAgent, body: object, headers: Record<string, string> = {}) =>
  agent.post('/checkout/orders', body, headers);

describe('requestFingerprint', () => {
  it('ignores key order and tells different requests apart', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"e":3,"f":2}]},"b":1}',
    );
    const secret = 'test-secret';
    expect(requestFingerprint(secret, { a: 1, b: 2 })).toBe(
      requestFingerprint(secret, { b: 2, a: 1 }),
    );
    expect(requestFingerprint(secret, { a: 1 })).not.toBe(requestFingerprint(secret, { a: 2 }));
    expect(requestFingerprint('other-secret', { a: 1 })).not.toBe(
      requestFingerprint(secret, { a: 1 }),
    );
  });
});

describe('Idempotency-Key', () => {
  it('answers a retry with the first result and charges once', async () => {
    await browser.post('/cart/items', { productId: 1, edition: 'standard', quantity: 2 });
    const db = database.db;
    const before = {
      orders: await countRows(db, 'orders'),
      payments: await countRows(db, 'payments'),
      charges: charges,
    };
    const key = 'order-attempt-7f3c';
    const body = createOrderRequest();

    const first = await placeOrder(browser, body, { 'idempotency-key': key });
    // The retry comes after the cart was emptied: without the key it would be a CART_EMPTY.
    const retry = await placeOrder(browser, body, { 'idempotency-key': key });

    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(first.statusCode);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await countRows(db, 'orders')).toBe(before.orders + 1);
    expect(await countRows(db, 'payments')).toBe(before.payments + 1);
    expect(charges).toBe(before.charges + 1);
    expect(await getStock(db, 1, 'standard')).toBe(8);
  });

  it('answers concurrent duplicates with one order', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    const db = database.db;
    const ordersBefore = await countRows(db, 'orders');
    const body = createOrderRequest();
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        placeOrder(browser, body, { 'idempotency-key': 'double-click' }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((r) => (r.json() as Order).id)).size).toBe(1);
    expect(await countRows(db, 'orders')).toBe(ordersBefore + 1);
  });

  it('answers 422 for the same key with a different body', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    const key = 'reused-key';
    expect(
      (await placeOrder(browser, createOrderRequest(), { 'idempotency-key': key })).statusCode,
    ).toBe(201);
    const other = await placeOrder(
      browser,
      createOrderRequest({ shipping: createShippingAddress({ country: 'FR' }) }),
      {
        'idempotency-key': key,
      },
    );
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      error: { code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotency-key' },
    });
  });

  it('lets a failed attempt be retried under the same key', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    await setStock(database.db, 3, 'standard', 0);
    const body = createOrderRequest();
    const failed = await placeOrder(browser, body, { 'idempotency-key': 'retry-after-restock' });
    expect(failed.statusCode).toBe(409);
    await setStock(database.db, 3, 'standard', 5);
    const retried = await placeOrder(browser, body, { 'idempotency-key': 'retry-after-restock' });
    expect(retried.statusCode).toBe(201);
  });

  it('keeps keys per session: the same key from another session is a new order', async () => {
    const other = createShopperAgent(app);
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    await other.post('/cart/items', { productId: 3, edition: 'standard' });
    const a = await placeOrder(browser, createOrderRequest(), { 'idempotency-key': 'shared-key' });
    const b = await placeOrder(other, createOrderRequest(), { 'idempotency-key': 'shared-key' });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect((a.json() as Order).id).not.toBe((b.json() as Order).id);
  });

  it('rejects a malformed key with a 400 naming the header', async () => {
    const res = await placeOrder(browser, createOrderRequest(), { 'idempotency-key': 'has space' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { field: 'idempotency-key' } });
  });
});
