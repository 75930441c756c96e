import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { countRows, createShopperAgent, futureExpiry } from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { TEST_CARDS } from './gateway.js';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const card = (overrides: Record<string, unknown> = {}) => ({
  number: '5555 5555 5555 4444',
  cvc: '321',
  ...futureExpiry(),
  ...overrides,
});

describe('payment methods', () => {
  it('saves brand, last four and expiry, and lists only them', async () => {
    const browser = createShopperAgent(app);
    const res = await browser.post('/payment-methods', card());
    expect(res.statusCode).toBe(201);
    const method = res.json() as Record<string, unknown>;
    expect(method).toEqual({
      id: expect.stringMatching(/^pm_/),
      brand: 'mastercard',
      last4: '4444',
      ...futureExpiry(),
      isDefault: true,
      createdAt: expect.any(String),
    });
    expect((await browser.get('/payment-methods')).json()).toEqual({ paymentMethods: [method] });

    const row = await testDb.database.db
      .selectFrom('payment_methods')
      .selectAll()
      .where('id', '=', method.id as string)
      .executeTakeFirstOrThrow();
    expect(Object.keys(row).sort()).toEqual([
      'brand',
      'created_at',
      'exp_month',
      'exp_year',
      'id',
      'is_default',
      'last4',
      'session_id',
      'token',
    ]);
    expect(row.token).toMatch(/^tok_[A-Za-z0-9_-]{22}$/);
  });

  it('accepts the expiry as MM/YY', async () => {
    const res = await createShopperAgent(app).post('/payment-methods', {
      number: TEST_CARDS.succeeds,
      cvc: '123',
      expiry: `11/${String(new Date().getUTCFullYear() + 2).slice(2)}`,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ expMonth: 11, expYear: new Date().getUTCFullYear() + 2 });
  });

  it('deletes only its own methods', async () => {
    const owner = createShopperAgent(app);
    const other = createShopperAgent(app);
    const { id } = (await owner.post('/payment-methods', card())).json() as { id: string };

    expect(
      ((await other.get('/payment-methods')).json() as { paymentMethods: unknown[] })
        .paymentMethods,
    ).toEqual([]);
    expect((await other.delete(`/payment-methods/${id}`)).statusCode).toBe(404);
    expect(
      ((await owner.get('/payment-methods')).json() as { paymentMethods: unknown[] })
        .paymentMethods,
    ).toHaveLength(1);

    const deleted = await owner.delete(`/payment-methods/${id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(
      ((await owner.get('/payment-methods')).json() as { paymentMethods: unknown[] })
        .paymentMethods,
    ).toEqual([]);
    expect((await owner.delete(`/payment-methods/${id}`)).statusCode).toBe(404);
  });

  it('saves nothing for a declined card or a gateway failure', async () => {
    const browser = createShopperAgent(app);
    const before = await countRows(testDb.database.db, 'payment_methods');
    const declined = await browser.post('/payment-methods', card({ number: TEST_CARDS.declines }));
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ error: { code: 'CARD_DECLINED' } });
    const failed = await browser.post(
      '/payment-methods',
      card({ number: TEST_CARDS.gatewayError }),
    );
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ error: { code: 'GATEWAY_ERROR' } });
    expect(await countRows(testDb.database.db, 'payment_methods')).toBe(before);
  });

  it.each([
    [card({ number: '4242 4242 4242 4241' }), 'number', 'CARD_NUMBER_INVALID'],
    [card({ cvc: '1' }), 'cvc'],
    [card({ expMonth: 13 }), 'expMonth'],
    [card({ expMonth: 1, expYear: 2001 }), 'expYear', 'CARD_EXPIRED'],
    [{ number: TEST_CARDS.succeeds, expMonth: 1, expYear: 2040 }, 'cvc'],
    [card({ number: undefined }), 'number'],
  ])(
    'rejects %j with a 400 naming the field',
    async (payload, field, code = 'VALIDATION_ERROR') => {
      const res = await createShopperAgent(app).post('/payment-methods', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code, field } });
    },
  );

  it('rejects a malformed id with a 400 naming the field', async () => {
    const res = await createShopperAgent(app).delete('/payment-methods/1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { field: 'id' } });
  });

  it('makes the first card the default, moves the default on request and after a delete', async () => {
    const browser = createShopperAgent(app);
    const other = createShopperAgent(app);
    const first = (await browser.post('/payment-methods', card())).json() as { id: string };
    const second = (
      await browser.post('/payment-methods', card({ number: TEST_CARDS.succeeds }))
    ).json() as { id: string };
    const listed = async () =>
      (
        (await browser.get('/payment-methods')).json() as {
          paymentMethods: { id: string; isDefault: boolean }[];
        }
      ).paymentMethods.map((m) => [m.id, m.isDefault]);
    expect(await listed()).toEqual([
      [first.id, true],
      [second.id, false],
    ]);

    expect((await other.put(`/payment-methods/${second.id}/default`, {})).statusCode).toBe(404);
    const made = await browser.put(`/payment-methods/${second.id}/default`, {});
    expect(made.statusCode).toBe(200);
    expect(await listed()).toEqual([
      [second.id, true],
      [first.id, false],
    ]);

    expect((await browser.delete(`/payment-methods/${second.id}`)).statusCode).toBe(204);
    expect(await listed()).toEqual([[first.id, true]]);
  });
});
