import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createShopperAgent,
  createTestApp,
  createTestShopperDirectory,
  setStock,
  type ShopperAgent,
  type TestApp,
} from '../../test/shop-factories.js';
import { FREE_SHIPPING_THRESHOLD_CENTS, SHIPPING_RATES_CENTS } from './pricing.js';
import type { Cart } from '@showroom/contracts/cart';

let database: TestApp['database'];
let close: TestApp['close'];
let app: FastifyInstance;
let browser: ShopperAgent;

// Catalog factory: product 1 "Birch Desk" 300.00 (special 200.01, 3 in stock), 3 "Cedar Console" 100.00.
beforeAll(async () => {
  ({ app, database, close } = await createTestApp({
    shopperDirectory: createTestShopperDirectory(),
  }));
});

afterAll(() => close());

beforeEach(async () => {
  browser = createShopperAgent(app);
  await setStock(database.db, 1, 'standard', 10);
  await setStock(database.db, 1, 'special', 3);
});

const cartOf = (res: { json(): unknown }) => res.json() as Cart;

describe('POST /cart/items', () => {
  it('adds a line priced by the server from the current price', async () => {
    const res = await browser.post('/cart/items', {
      productId: 1,
      edition: 'standard',
      quantity: 2,
      unitPriceCents: 1,
      priceCents: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(cartOf(res)).toEqual({
      lines: [
        {
          id: expect.stringMatching(/^line_/),
          productId: 1,
          edition: 'standard',
          name: 'Birch Desk',
          department: 'tables',
          unitPriceCents: 30_000,
          quantity: 2,
          lineTotalCents: 60_000,
          stock: 10,
          inStock: true,
        },
      ],
      itemCount: 2,
      currency: 'USD',
      country: 'US',
      subtotalCents: 60_000,
      discountRate: 0,
      discountCents: 0,
      shippingCents: SHIPPING_RATES_CENTS.US,
      freeShipping: false,
      freeShippingThresholdCents: FREE_SHIPPING_THRESHOLD_CENTS,
      totalCents: 60_000 + SHIPPING_RATES_CENTS.US,
    });
  });

  it('keeps the special edition on its own line with its own price and stock', async () => {
    await browser.post('/cart/items', { productId: 1, edition: 'standard' });
    const res = await browser.post('/cart/items', {
      productId: 1,
      edition: 'special',
      quantity: 2,
    });
    const cart = cartOf(res);
    expect(
      cart.lines.map((l) => [l.edition, l.name, l.unitPriceCents, l.quantity, l.stock]),
    ).toEqual([
      ['standard', 'Birch Desk', 30_000, 1, 10],
      ['special', 'Test product 1 — Special', 20_001, 2, 3],
    ]);
    expect(cart.subtotalCents).toBe(30_000 + 40_002);
  });

  it('raises the quantity when the same edition is added again', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard', quantity: 2 });
    const res = await browser.post('/cart/items', {
      productId: 3,
      edition: 'standard',
      quantity: 3,
    });
    expect(cartOf(res).lines).toEqual([expect.objectContaining({ productId: 3, quantity: 5 })]);
  });

  it('answers 409 OUT_OF_STOCK naming quantity when stock does not cover the cart', async () => {
    await browser.post('/cart/items', { productId: 1, edition: 'special', quantity: 2 });
    const res = await browser.post('/cart/items', {
      productId: 1,
      edition: 'special',
      quantity: 2,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: {
        code: 'OUT_OF_STOCK',
        message: 'Only 3 of "Test product 1 — Special" left in stock; your cart already has 2',
        field: 'quantity',
      },
    });
    expect(cartOf(await browser.get('/cart')).lines).toEqual([
      expect.objectContaining({ quantity: 2 }),
    ]);
  });

  it('says a sold-out edition is out of stock', async () => {
    await setStock(database.db, 1, 'special', 0);
    const res = await browser.post('/cart/items', { productId: 1, edition: 'special' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      error: { code: 'OUT_OF_STOCK', message: '"Test product 1 — Special" is out of stock' },
    });
  });

  it('answers 404 naming productId for a product that does not exist', async () => {
    const res = await browser.post('/cart/items', { productId: 999, edition: 'standard' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { field: 'productId' } });
  });

  it.each([
    [{ edition: 'standard' }, 'productId'],
    [{ productId: 1 }, 'edition'],
    [{ productId: 1, edition: 'deluxe' }, 'edition'],
    [{ productId: 1, edition: 'standard', quantity: 0 }, 'quantity'],
    [{ productId: 1, edition: 'standard', quantity: 100 }, 'quantity'],
    [{ productId: 1, edition: 'standard', quantity: 1.5 }, 'quantity'],
  ])('rejects %j with a 400 naming the field', async (payload, field) => {
    const res = await browser.post('/cart/items', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field } });
  });
});

describe('PATCH and DELETE /cart/items/:lineId', () => {
  it('sets the quantity, checking stock', async () => {
    const added = cartOf(await browser.post('/cart/items', { productId: 1, edition: 'special' }));
    const lineId = added.lines[0]?.id ?? '';
    const res = await browser.patch(`/cart/items/${lineId}`, { quantity: 3 });
    expect(res.statusCode).toBe(200);
    expect(cartOf(res).lines[0]).toMatchObject({ quantity: 3, lineTotalCents: 60_003 });

    const tooMany = await browser.patch(`/cart/items/${lineId}`, { quantity: 4 });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({ error: { code: 'OUT_OF_STOCK', field: 'quantity' } });

    for (const quantity of [0, 100]) {
      const bad = await browser.patch(`/cart/items/${lineId}`, { quantity });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { field: 'quantity' } });
    }
    expect(cartOf(await browser.get('/cart')).lines[0]?.quantity).toBe(3);
  });

  it('removes a line', async () => {
    const added = cartOf(await browser.post('/cart/items', { productId: 3, edition: 'standard' }));
    const lineId = added.lines[0]?.id ?? '';
    const res = await browser.delete(`/cart/items/${lineId}`);
    expect(res.statusCode).toBe(200);
    expect(cartOf(res)).toMatchObject({ lines: [], itemCount: 0, totalCents: 0, shippingCents: 0 });
    expect((await browser.delete(`/cart/items/${lineId}`)).statusCode).toBe(404);
  });

  it('rejects a malformed line id with a 400 naming lineId', async () => {
    const res = await browser.patch('/cart/items/42', { quantity: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { field: 'lineId' } });
  });
});

describe('cart ownership', () => {
  it("never shows or changes another session's cart", async () => {
    const other = createShopperAgent(app);
    const added = cartOf(
      await browser.post('/cart/items', { productId: 1, edition: 'standard', quantity: 2 }),
    );
    const lineId = added.lines[0]?.id ?? '';

    expect(cartOf(await other.get('/cart')).lines).toEqual([]);
    expect((await other.patch(`/cart/items/${lineId}`, { quantity: 1 })).statusCode).toBe(404);
    expect((await other.delete(`/cart/items/${lineId}`)).statusCode).toBe(404);
    expect((await other.get('/session')).json()).toMatchObject({ cart: { itemCount: 0 } });

    expect(cartOf(await browser.get('/cart')).lines).toEqual([
      expect.objectContaining({ id: lineId, quantity: 2 }),
    ]);
    expect((await browser.get('/session')).json()).toMatchObject({
      cart: { itemCount: 2, lineCount: 1 },
    });
  });

  it('works for the web server forwarding the Cookie header', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    const res = await app.inject({
      method: 'GET',
      url: '/cart',
      headers: { cookie: `theme=dark; showroom_session=${browser.cookie ?? ''}; other=1` },
    });
    expect(cartOf(res).itemCount).toBe(1);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('GET /cart pricing', () => {
  it('charges shipping for the chosen country and ships free from the threshold', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    expect(cartOf(await browser.get('/cart?country=JP'))).toMatchObject({
      country: 'JP',
      shippingCents: SHIPPING_RATES_CENTS.JP,
    });
    const bad = await browser.get('/cart?country=XX');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { field: 'country' } });

    // 10 × 100.00 = 1000.00 reaches the free-shipping threshold.
    await browser.post('/cart/items', { productId: 3, edition: 'standard', quantity: 9 });
    expect(cartOf(await browser.get('/cart?country=AU'))).toMatchObject({
      subtotalCents: 100_000,
      shippingCents: 0,
      freeShipping: true,
      totalCents: 100_000,
    });
  });

  it('takes 10% off merchandise for a shopper whose record has the discount', async () => {
    await browser.put('/session/shopper', { shopperId: 'bbbb0001' });
    const res = await browser.post('/cart/items', { productId: 1, edition: 'standard' });
    expect(cartOf(res)).toMatchObject({
      subtotalCents: 30_000,
      discountRate: 0.1,
      discountCents: 3_000,
      totalCents: 27_000 + SHIPPING_RATES_CENTS.US,
    });
  });

  it('prices from the current price and flags lines the stock no longer covers', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard', quantity: 2 });
    await database.db
      .updateTable('products')
      .set({ price_cents: 12_345 })
      .where('id', '=', 3)
      .execute();
    await setStock(database.db, 3, 'standard', 1);
    try {
      const cart = cartOf(await browser.get('/cart'));
      expect(cart.lines[0]).toMatchObject({
        unitPriceCents: 12_345,
        lineTotalCents: 24_690,
        inStock: false,
      });
    } finally {
      await database.db
        .updateTable('products')
        .set({ price_cents: 10_000 })
        .where('id', '=', 3)
        .execute();
      await setStock(database.db, 3, 'standard', 10);
    }
  });
});

describe('POST /cart/buy-now', () => {
  it('replaces the cart with the one product edition', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard', quantity: 4 });
    const res = await browser.post('/cart/buy-now', { productId: 1, edition: 'special' });
    expect(res.statusCode).toBe(200);
    expect(cartOf(res).lines).toEqual([
      expect.objectContaining({
        productId: 1,
        edition: 'special',
        quantity: 1,
        unitPriceCents: 20_001,
      }),
    ]);
  });

  it('checks stock and leaves the cart alone when it fails', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    await setStock(database.db, 1, 'special', 0);
    const res = await browser.post('/cart/buy-now', { productId: 1, edition: 'special' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: 'OUT_OF_STOCK' } });
    expect(cartOf(await browser.get('/cart')).lines).toEqual([
      expect.objectContaining({ productId: 3 }),
    ]);
  });
});
