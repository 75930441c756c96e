import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrderRequest,
  createShopperAgent,
  createTestApp,
  type ShopperAgent,
  type TestApp,
} from '../../test/shop-factories.js';
import type { Order } from '@showroom/contracts/orders';

let database: TestApp['database'];
let close: TestApp['close'];
let app: FastifyInstance;

beforeAll(async () => {
  ({ app, database, close } = await createTestApp());
});

afterAll(() => close());

async function buy(shopper: ShopperAgent, productId: number): Promise<Order> {
  await shopper.post('/cart/items', { productId, edition: 'standard' });
  const res = await shopper.post('/checkout/orders', createOrderRequest());
  expect(res.statusCode).toBe(201);
  return res.json() as Order;
}

describe('GET /orders', () => {
  it("lists the session's own orders, newest first", async () => {
    const alice = createShopperAgent(app);
    const bob = createShopperAgent(app);
    const first = await buy(alice, 1);
    // Two orders can share a millisecond; date the first one back so "newest" is unambiguous.
    const earlier = '2020-01-01T00:00:00.000Z';
    await database.db
      .updateTable('orders')
      .set({ created_at: earlier })
      .where('id', '=', first.id)
      .execute();
    const second = await buy(alice, 2);
    const bobs = await buy(bob, 3);

    const res = await alice.get('/orders');
    expect(res.statusCode).toBe(200);
    const { orders } = res.json() as { orders: Order[] };
    expect(orders.map((o) => o.id)).toEqual([second.id, first.id]);
    expect(orders[1]).toEqual({ ...first, createdAt: earlier });
    expect(orders.map((o) => o.id)).not.toContain(bobs.id);

    expect(
      ((await createShopperAgent(app).get('/orders')).json() as { orders: Order[] }).orders,
    ).toEqual([]);
  });
});

describe('GET /orders/:id', () => {
  it("answers 404 for another session's order, the same as for a missing one", async () => {
    const alice = createShopperAgent(app);
    const mallory = createShopperAgent(app);
    const order = await buy(alice, 10);

    expect((await alice.get(`/orders/${order.id}`)).json()).toEqual(order);
    const stolen = await mallory.get(`/orders/${order.id}`);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toEqual({
      error: { code: 'NOT_FOUND', message: `Order ${order.id} not found` },
    });
    const missing = await alice.get('/orders/ord_AAAAAAAAAAAAAAAAAAAAAA');
    expect(missing.statusCode).toBe(404);
  });

  it('rejects a malformed id with a 400 naming the field', async () => {
    const res = await createShopperAgent(app).get('/orders/1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field: 'id' } });
  });

  it('ignores user ids offered by the client', async () => {
    const alice = createShopperAgent(app);
    const order = await buy(alice, 20);
    const res = await createShopperAgent(app).get(`/orders/${order.id}?sessionId=x&userId=y`);
    expect(res.statusCode).toBe(404);
  });
});
