import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  countRows,
  createCardPayment,
  createOrderRequest,
  createShippingAddress,
  createShopperAgent,
  createTestApp,
  createTestShopperDirectory,
  futureExpiry,
  getStock,
  setStock,
  type ShopperAgent,
  type TestApp,
} from '../../test/shop-factories.js';
import { SHIPPING_RATES_CENTS } from '../cart/pricing.js';
import type { Order } from '@showroom/contracts/orders';
import { TEST_CARDS } from '../payments/gateway.js';

let database: TestApp['database'];
let close: TestApp['close'];
let app: FastifyInstance;
let browser: ShopperAgent;
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
  await setStock(database.db, 3, 'standard', 10);
});

const placeOrder = (
  agent: ShopperAgent,
  body: object = createOrderRequest(),
  headers: Record<string, string> = {},
) => agent.post('/checkout/orders', body, headers);

/** Everything a failed order attempt must leave as it was. */
async function snapshot(agent: ShopperAgent) {
  const db = database.db;
  return {
    stock: [
      await getStock(db, 1, 'standard'),
      await getStock(db, 1, 'special'),
      await getStock(db, 3, 'standard'),
    ],
    cart: ((await agent.get('/cart')).json() as { lines: unknown[] }).lines,
    orders: await countRows(db, 'orders'),
    payments: await countRows(db, 'payments'),
    paymentMethods: await countRows(db, 'payment_methods'),
  };
}

describe('POST /checkout/orders', () => {
  it('places the order: re-priced, stock taken, card charged, cart emptied', async () => {
    await browser.post('/cart/items', { productId: 1, edition: 'standard', quantity: 2 });
    await browser.post('/cart/items', { productId: 1, edition: 'special' });
    const paymentsBefore = await countRows(database.db, 'payments');

    const res = await placeOrder(
      browser,
      createOrderRequest({
        shipping: createShippingAddress({ country: 'DE', address2: 'Floor 2' }),
        instantPayVariant: 'b',
        checkoutFlow: 'single-page',
      }),
    );
    expect(res.statusCode).toBe(201);
    const order = res.json() as Order;
    expect(res.headers.location).toBe(`/orders/${order.id}`);
    expect(order).toEqual({
      id: expect.stringMatching(/^ord_/),
      status: 'paid',
      createdAt: expect.any(String),
      currency: 'USD',
      lines: [
        {
          productId: 1,
          edition: 'standard',
          name: 'Birch Desk',
          unitPriceCents: 30_000,
          quantity: 2,
          lineTotalCents: 60_000,
        },
        {
          productId: 1,
          edition: 'special',
          name: 'Test product 1 — Special',
          unitPriceCents: 20_001,
          quantity: 1,
          lineTotalCents: 20_001,
        },
      ],
      itemCount: 3,
      subtotalCents: 80_001,
      discountCents: 0,
      shippingCents: SHIPPING_RATES_CENTS.DE,
      totalCents: 80_001 + SHIPPING_RATES_CENTS.DE,
      shipping: createShippingAddress({ country: 'DE', address2: 'Floor 2' }),
      payment: { brand: 'visa', last4: '4242' },
      instantPayVariant: 'b',
      checkoutFlow: 'single-page',
    });

    const db = database.db;
    expect(await getStock(db, 1, 'standard')).toBe(8);
    expect(await getStock(db, 1, 'special')).toBe(2);
    expect(((await browser.get('/cart')).json() as { lines: unknown[] }).lines).toEqual([]);
    expect(await countRows(db, 'payments')).toBe(paymentsBefore + 1);
    const stored = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      instant_pay_variant: 'b',
      checkout_flow: 'single-page',
      card_last4: '4242',
    });

    expect((await browser.get(`/orders/${order.id}`)).json()).toEqual(order);
  });

  it('charges the price at checkout time, not the price when the product was added', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    await database.db
      .updateTable('products')
      .set({ price_cents: 11_111 })
      .where('id', '=', 3)
      .execute();
    try {
      const res = await placeOrder(browser);
      expect(res.json()).toMatchObject({
        lines: [{ unitPriceCents: 11_111 }],
        subtotalCents: 11_111,
      });
    } finally {
      await database.db
        .updateTable('products')
        .set({ price_cents: 10_000 })
        .where('id', '=', 3)
        .execute();
    }
  });

  it("applies the bound shopper's discount and records the shopper", async () => {
    await browser.put('/session/shopper', { shopperId: 'bbbb0001' });
    await browser.post('/cart/items', { productId: 1, edition: 'standard' });
    const res = await placeOrder(browser);
    expect(res.json()).toMatchObject({
      subtotalCents: 30_000,
      discountCents: 3_000,
      totalCents: 27_000 + 2_500,
    });
    const { id } = res.json() as Order;
    const stored = await database.db
      .selectFrom('orders')
      .select('shopper_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.shopper_id).toBe('bbbb0001');
  });

  it('answers 409 CART_EMPTY for an empty cart', async () => {
    const res = await placeOrder(browser);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: {
        code: 'CART_EMPTY',
        message: 'Your cart is empty: add a product before checking out',
      },
    });
  });

  it('answers 409 OUT_OF_STOCK naming the product when stock ran out after adding, changing nothing', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard', quantity: 2 });
    await browser.post('/cart/items', { productId: 1, edition: 'special', quantity: 2 });
    await setStock(database.db, 1, 'special', 1);
    const before = await snapshot(browser);

    const res = await placeOrder(browser);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      error: {
        code: 'OUT_OF_STOCK',
        message: 'Only 1 of "Test product 1 — Special" left in stock',
        field: expect.stringMatching(/^lines\.line_/),
      },
    });
    // Product 1 special comes after product 3's line in the cart but is checked first; either way
    // the stock of both stays as it was.
    expect(await snapshot(browser)).toEqual(before);
  });

  it('answers 402 CARD_DECLINED for the decline test card, changing nothing', async () => {
    await browser.post('/cart/items', { productId: 1, edition: 'standard' });
    const before = await snapshot(browser);
    const res = await placeOrder(
      browser,
      createOrderRequest({
        payment: createCardPayment({ number: TEST_CARDS.declines, saveCard: true }),
      }),
    );
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      error: { code: 'CARD_DECLINED', message: expect.stringContaining('declined') },
    });
    expect(await snapshot(browser)).toEqual(before);
  });

  it('answers 502 GATEWAY_ERROR when the gateway fails, changing nothing', async () => {
    await browser.post('/cart/items', { productId: 1, edition: 'standard' });
    const before = await snapshot(browser);
    const res = await placeOrder(
      browser,
      createOrderRequest({ payment: createCardPayment({ number: '4000 0000 0000 0119' }) }),
    );
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error: { code: 'GATEWAY_ERROR' } });
    expect(await snapshot(browser)).toEqual(before);
  });

  it('charges any other Luhn-valid card', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    const res = await placeOrder(
      browser,
      createOrderRequest({ payment: createCardPayment({ number: '5555 5555 5555 4444' }) }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ payment: { brand: 'mastercard', last4: '4444' } });
  });

  it.each([
    [
      { payment: createCardPayment({ number: '4242 4242 4242 4241' }) },
      'payment.card.number',
      'CARD_NUMBER_INVALID',
    ],
    [
      { payment: createCardPayment({ expMonth: 1, expYear: 2020 }) },
      'payment.card.expYear',
      'CARD_EXPIRED',
    ],
    [{ payment: createCardPayment({ cvc: '12' }) }, 'payment.card.cvc'],
    [{ payment: { type: 'card' } }, 'payment.card'],
    [{ payment: { type: 'saved' } }, 'payment.paymentMethodId'],
    [{ payment: { type: 'cash' } }, 'payment.type'],
    [{ shipping: createShippingAddress({ country: 'XX' }) }, 'shipping.country'],
    [{ shipping: createShippingAddress({ email: 'not-an-email' }) }, 'shipping.email'],
    [{ shipping: createShippingAddress({ name: '   ' }) }, 'shipping.name'],
    [{ shipping: { ...createShippingAddress(), city: undefined } }, 'shipping.city'],
    [{ instantPayVariant: 'd' }, 'instantPayVariant'],
    [{ checkoutFlow: 'express' }, 'checkoutFlow'],
  ])(
    'rejects %j with a 400 naming the field, changing nothing',
    async (overrides, field, code = 'VALIDATION_ERROR') => {
      await browser.post('/cart/items', { productId: 1, edition: 'standard' });
      const before = await snapshot(browser);
      const res = await placeOrder(browser, createOrderRequest(overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code, field } });
      expect(await snapshot(browser)).toEqual(before);
    },
  );

  it('saves the card when asked and pays later with the saved card', async () => {
    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    const first = await placeOrder(
      browser,
      createOrderRequest({ payment: createCardPayment({ saveCard: true }) }),
    );
    expect(first.statusCode).toBe(201);
    const methods = (await browser.get('/payment-methods')).json() as {
      paymentMethods: { id: string }[];
    };
    expect(methods.paymentMethods).toEqual([
      {
        id: expect.stringMatching(/^pm_/),
        brand: 'visa',
        last4: '4242',
        ...futureExpiry(),
        isDefault: true,
        createdAt: expect.any(String),
      },
    ]);

    await browser.post('/cart/items', { productId: 3, edition: 'standard' });
    const paymentMethodId = methods.paymentMethods[0]?.id ?? '';
    const second = await placeOrder(
      browser,
      createOrderRequest({ payment: { type: 'saved', paymentMethodId } }),
    );
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ payment: { brand: 'visa', last4: '4242' } });

    // Another session cannot pay with it.
    const other = createShopperAgent(app);
    await other.post('/cart/items', { productId: 3, edition: 'standard' });
    const stolen = await placeOrder(
      other,
      createOrderRequest({ payment: { type: 'saved', paymentMethodId } }),
    );
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({ error: { field: 'payment.paymentMethodId' } });
  });
});

describe('buy-now demo error mode', () => {
  it('fails the order attempt with a 500 from the error handler, changing nothing', async () => {
    await browser.post('/cart/buy-now', { productId: 1, edition: 'special' });
    const before = await snapshot(browser);
    const res = await placeOrder(browser, createOrderRequest(), { 'x-demo-error': 'buy-now' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal Server Error' } });
    expect(await snapshot(browser)).toEqual(before);

    const retry = await placeOrder(browser);
    expect(retry.statusCode).toBe(201);
  });

  it('rejects an unknown demo error value with a 400 naming the header', async () => {
    const res = await placeOrder(browser, createOrderRequest(), { 'x-demo-error': 'everything' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { field: 'x-demo-error' } });
  });
});

describe('OpenAPI document', () => {
  it('describes every shop route with its tag', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const expected: [string, string, string][] = [
      ['/session', 'get', 'session'],
      ['/session/shopper', 'put', 'session'],
      ['/session/shopper', 'delete', 'session'],
      ['/cart', 'get', 'cart'],
      ['/cart/items', 'post', 'cart'],
      ['/cart/items/{lineId}', 'patch', 'cart'],
      ['/cart/items/{lineId}', 'delete', 'cart'],
      ['/cart/buy-now', 'post', 'cart'],
      ['/checkout/orders', 'post', 'checkout'],
      ['/orders', 'get', 'orders'],
      ['/orders/{id}', 'get', 'orders'],
      ['/payment-methods', 'get', 'payments'],
      ['/payment-methods', 'post', 'payments'],
      ['/payment-methods/{id}', 'delete', 'payments'],
    ];
    for (const [path, method, tag] of expected) {
      expect(doc.paths[path]?.[method]?.tags, `${method} ${path}`).toEqual([tag]);
    }
  });
});
