import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { DatabaseHandle } from '../db/database.js';
import type { Order } from '@showroom/contracts/orders';
import type { Cart } from '@showroom/contracts/cart';
import { seedCatalog } from '../modules/catalog/seed.js';
import { createSeedProduct } from '../test/factories.js';
import {
  createOrderRequest,
  createShopperAgent,
  getStock,
  type ShopperAgent,
} from '../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';

/**
 * Concurrency part of the hardening issue (docs/requirements.md; the rules are decision 003,
 * docs/decisions/003-sessions-money-idempotency.md): concurrent cart updates and checkouts on one
 * product never oversell and never create duplicate orders, Idempotency-Key retries included.
 * The suite runs once on SQLite and once on PostgreSQL (TEST_DATABASE_URL). Complements
 * checkout/concurrent-orders.test.ts (many shoppers, no keys) and checkout/idempotency.test.ts
 * (one key, one session).
 */

/** Product ids of the seed below, one per test so the tests do not share stock. */
const SCARCE = 1; // many shoppers, keys, duplicates and retries
const DOUBLE_SUBMIT = 2; // one session, several keys
const RACED_CART = 3; // checkout racing the same cart's changes
/**
 * Its stock: a round sells at most 3 (the line patched to 2, plus the racing add when it lands
 * first), so 5 rounds never sell out and every round's first add finds stock.
 */
const RACED_CART_STOCK = 20;
const QUANTITIES = 4; // quantity changes racing on one cart
const ADDS = 5; // adds racing on one cart
const SCARCE_STOCK = 5;

let testDb: TestDatabase;
let app: FastifyInstance;
let label: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  label = testDb.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite';
  await seedCatalog(testDb.database.db, {
    departments: [{ slug: 'tables', name: 'Tables', description: 'Tables.' }],
    products: [
      createSeedProduct({ id: SCARCE, name: 'Scarce Table', stock: SCARCE_STOCK }),
      createSeedProduct({ id: DOUBLE_SUBMIT, name: 'Double Table', stock: 10 }),
      createSeedProduct({ id: RACED_CART, name: 'Raced Table', stock: RACED_CART_STOCK }),
      createSeedProduct({ id: QUANTITIES, name: 'Quantity Table', stock: 10 }),
      createSeedProduct({ id: ADDS, name: 'Adds Table', stock: 5 }),
    ],
  });
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

const errorCode = (res: LightMyRequestResponse): string | undefined =>
  (res.json() as { error?: { code?: string } }).error?.code;

/** Units sold of a product's standard edition: the quantities on its order lines. */
async function soldUnits(database: DatabaseHandle, productId: number): Promise<number> {
  const row = await database.db
    .selectFrom('order_lines')
    .select((eb) => eb.fn.sum<string | number | null>('quantity').as('n'))
    .where('product_id', '=', productId)
    .where('edition', '=', 'standard')
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

async function ordersOfSession(database: DatabaseHandle, sessionId: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom('orders')
    .select('id')
    .where('session_id', '=', sessionId)
    .execute();
  return rows.map((row) => row.id);
}

/** The session id inside an agent's signed cookie (`ses_….signature`). */
const sessionIdOf = (agent: ShopperAgent): string => {
  const cookie = agent.cookie;
  if (!cookie) throw new Error('the agent has no session yet');
  return decodeURIComponent(cookie).split('.')[0] ?? '';
};

describe(`concurrent checkouts of one scarce product`, () => {
  it('never oversells, makes one order per Idempotency-Key, and answers retries alike', async () => {
    const SHOPPERS = 40;
    const COPIES = 3; // a double (triple) click: the same key sent concurrently
    const database = testDb.database;
    const shoppers = Array.from({ length: SHOPPERS }, (_, i) => ({
      agent: createShopperAgent(app),
      key: `scarce-${i}`,
      quantity: i % 4 === 0 ? 2 : 1,
      body: createOrderRequest(),
    }));
    const added = await Promise.all(
      shoppers.map(({ agent, quantity }) =>
        agent.post('/cart/items', { productId: SCARCE, edition: 'standard', quantity }),
      ),
    );
    expect(added.map((res) => res.statusCode)).toEqual(shoppers.map(() => 200));

    const send = (shopper: (typeof shoppers)[number]) =>
      shopper.agent.post('/checkout/orders', shopper.body, { 'idempotency-key': shopper.key });
    // Every shopper's copies at once, then one more retry of every key once they all answered.
    const concurrent = await Promise.all(
      shoppers.map((shopper) => Promise.all(Array.from({ length: COPIES }, () => send(shopper)))),
    );
    const retries = await Promise.all(shoppers.map(send));
    const answers = shoppers.map((_, i) => [...(concurrent[i] ?? []), retries[i]!]);

    let acknowledged = 0;
    let refused = 0;
    const orderIds = new Set<string>();
    for (const [i, shopper] of shoppers.entries()) {
      const mine = answers[i] ?? [];
      // Every copy and retry of one key answers the same: one order, or one refusal.
      expect(new Set(mine.map((res) => res.statusCode)).size, shopper.key).toBe(1);
      const status = mine[0]?.statusCode;
      if (status === 201) {
        const ids = new Set(mine.map((res) => (res.json() as Order).id));
        expect(ids.size, shopper.key).toBe(1);
        expect(mine.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(
          mine.length - 1,
        );
        acknowledged += 1;
        for (const id of ids) orderIds.add(id);
        expect(await ordersOfSession(database, sessionIdOf(shopper.agent))).toEqual([...ids]);
      } else {
        expect(status, shopper.key).toBe(409);
        for (const res of mine) expect(errorCode(res)).toBe('OUT_OF_STOCK');
        refused += 1;
        expect(await ordersOfSession(database, sessionIdOf(shopper.agent))).toEqual([]);
      }
    }

    const stock = await getStock(database.db, SCARCE, 'standard');
    const sold = await soldUnits(database, SCARCE);
    const duplicates = await database.db
      .selectFrom('orders')
      .select('session_id')
      .groupBy('session_id')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    const requests = SHOPPERS * (COPIES + 1);
    console.info(
      `concurrency (${label}): ${SHOPPERS} shoppers, ${requests} checkout requests, ` +
        `${acknowledged} orders acknowledged, ${refused} refused OUT_OF_STOCK, ` +
        `${Math.max(0, sold - SCARCE_STOCK)} oversold, ${duplicates.length} duplicates, ` +
        `stock ${SCARCE_STOCK} = ${stock} left + ${sold} sold`,
    );
    expect(duplicates).toEqual([]);
    expect(orderIds.size).toBe(acknowledged);
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(stock + sold).toBe(SCARCE_STOCK);
    // Demand (50 units) passes the stock and most shoppers want one unit: every unit is sold.
    expect(sold).toBe(SCARCE_STOCK);
    expect(acknowledged + refused).toBe(SHOPPERS);
  });

  it('places one order when one cart is checked out by several requests with different keys', async () => {
    const database = testDb.database;
    const agent = createShopperAgent(app);
    expect(
      (await agent.post('/cart/items', { productId: DOUBLE_SUBMIT, edition: 'standard' }))
        .statusCode,
    ).toBe(200);
    const body = createOrderRequest();
    // Two tabs, a client that makes a new key per click, and requests without a key.
    const results = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        agent.post('/checkout/orders', body, { 'idempotency-key': `tab-${i}` }),
      ),
      agent.post('/checkout/orders', body),
      agent.post('/checkout/orders', body),
    ]);
    const statuses = results.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const res of results.filter((r) => r.statusCode === 409)) {
      expect(errorCode(res)).toBe('CART_EMPTY');
    }
    expect(await ordersOfSession(database, sessionIdOf(agent))).toHaveLength(1);
    expect(await getStock(database.db, DOUBLE_SUBMIT, 'standard')).toBe(9);
    expect(await soldUnits(database, DOUBLE_SUBMIT)).toBe(1);
  });

  it('keeps stock and the cart consistent when the cart changes during its checkout', async () => {
    const database = testDb.database;
    const START = RACED_CART_STOCK;
    for (let round = 0; round < 5; round += 1) {
      const agent = createShopperAgent(app);
      const first = await agent.post('/cart/items', { productId: RACED_CART, edition: 'standard' });
      expect(first.statusCode).toBe(200);
      const lineId = (first.json() as Cart).lines[0]!.id;
      const results = await Promise.all([
        agent.patch(`/cart/items/${lineId}`, { quantity: 2 }),
        agent.post('/checkout/orders', createOrderRequest(), {
          'idempotency-key': `race-${round}`,
        }),
        agent.patch(`/cart/items/${lineId}`, { quantity: 1 }),
        agent.post('/cart/items', { productId: RACED_CART, edition: 'standard' }),
      ]);
      const [patchA, checkout, patchB, add] = results;
      expect(checkout!.statusCode).toBe(201);
      // A change that came after the checkout took the line finds it gone (404), never a 500.
      for (const res of [patchA!, patchB!]) expect([200, 404, 409]).toContain(res.statusCode);
      expect([200, 409]).toContain(add!.statusCode);

      const order = checkout!.json() as Order;
      const cart = (await agent.get('/cart')).json() as Cart;
      expect(cart.lines.length).toBeLessThanOrEqual(1);
      expect(cart.itemCount).toBe(cart.lines.reduce((n, line) => n + line.quantity, 0));
      // What the order says it sold is what it took: stock + sold stays the start.
      expect(order.lines.map((line) => line.productId)).toEqual([RACED_CART]);
      const stored = await database.db
        .selectFrom('order_lines')
        .select('quantity')
        .where('order_id', '=', order.id)
        .execute();
      expect(stored.map((line) => line.quantity)).toEqual([order.lines[0]!.quantity]);
    }
    const stock = await getStock(database.db, RACED_CART, 'standard');
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(stock + (await soldUnits(database, RACED_CART))).toBe(START);
  });
});

describe('concurrent changes to one cart', () => {
  it('ends with one line holding the quantity of one of the racing changes', async () => {
    const agent = createShopperAgent(app);
    const first = await agent.post('/cart/items', { productId: QUANTITIES, edition: 'standard' });
    const lineId = (first.json() as Cart).lines[0]!.id;
    const quantities = Array.from({ length: 24 }, (_, i) => (i % 10) + 1);
    const results = await Promise.all(
      quantities.map((quantity) => agent.patch(`/cart/items/${lineId}`, { quantity })),
    );
    expect(results.map((res) => res.statusCode)).toEqual(quantities.map(() => 200));
    const cart = (await agent.get('/cart')).json() as Cart;
    expect(cart.lines).toHaveLength(1);
    expect(quantities).toContain(cart.lines[0]!.quantity);
    expect(cart.itemCount).toBe(cart.lines[0]!.quantity);
    // Every answer was a whole cart with one line: no answer showed a half-applied change.
    for (const res of results) {
      const answered = res.json() as Cart;
      expect(answered.lines).toHaveLength(1);
      expect(quantities).toContain(answered.lines[0]!.quantity);
    }
  });

  it('ends with exactly the one line of a buy now clicked several times at once', async () => {
    const agent = createShopperAgent(app);
    expect((await agent.get('/session')).statusCode).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        agent.post('/cart/buy-now', { productId: QUANTITIES, edition: 'standard', quantity: 2 }),
      ),
    );
    expect(results.map((res) => res.statusCode)).toEqual(results.map(() => 200));
    const cart = (await agent.get('/cart')).json() as Cart;
    expect(cart.lines.map((line) => [line.productId, line.quantity])).toEqual([[QUANTITIES, 2]]);
  });

  it('ends with one line when buy now is clicked on different products at once', async () => {
    const agent = createShopperAgent(app);
    expect((await agent.get('/session')).statusCode).toBe(200);
    const choices = [QUANTITIES, ADDS, DOUBLE_SUBMIT, QUANTITIES, ADDS, DOUBLE_SUBMIT];
    const results = await Promise.all(
      choices.map((productId) =>
        agent.post('/cart/buy-now', { productId, edition: 'standard', quantity: 1 }),
      ),
    );
    expect(results.map((res) => res.statusCode)).toEqual(choices.map(() => 200));
    const cart = (await agent.get('/cart')).json() as Cart;
    expect(cart.lines).toHaveLength(1);
    expect(choices).toContain(cart.lines[0]!.productId);
    expect(cart.lines[0]!.quantity).toBe(1);
  });

  it('accepts racing adds only up to the stock', async () => {
    const agent = createShopperAgent(app);
    expect((await agent.get('/session')).statusCode).toBe(200);
    const ADDERS = 20;
    const results = await Promise.all(
      Array.from({ length: ADDERS }, () =>
        agent.post('/cart/items', { productId: ADDS, edition: 'standard' }),
      ),
    );
    const accepted = results.filter((res) => res.statusCode === 200).length;
    const refused = results.filter((res) => res.statusCode === 409);
    for (const res of refused) expect(errorCode(res)).toBe('OUT_OF_STOCK');
    const cart = (await agent.get('/cart')).json() as Cart;
    console.info(
      `concurrency (${label}): ${ADDERS} racing adds to one cart, ${accepted} accepted, ` +
        `${refused.length} refused, cart holds ${cart.itemCount} of stock 5`,
    );
    expect(accepted).toBe(5);
    expect(refused).toHaveLength(ADDERS - 5);
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]!.quantity).toBe(5);
  });
});
