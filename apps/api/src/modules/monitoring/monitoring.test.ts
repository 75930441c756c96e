import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createSessionRepository } from '../session/repository.js';
import {
  createRumAction,
  createRumError,
  createRumView,
  createRumVital,
  sendRum as sendRumTo,
  SAMPLE_SHOPPER,
} from '../../test/rum-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const T0 = 1_767_225_600_000;

let testDb: TestDatabase;
let app: FastifyInstance;

const sendRum = (events: unknown[]) => sendRumTo(app, events);

/** An order row as the checkout writes it (the stats read only its variant). */
async function insertOrder(id: string, instantPayVariant: string | null) {
  const at = new Date(NOW).toISOString();
  const session = await createSessionRepository(testDb.database.db).create(new Date(NOW));
  await testDb.database.db
    .insertInto('orders')
    .values({
      id,
      session_id: session.id,
      shopper_id: null,
      status: 'paid',
      currency: 'EUR',
      subtotal_cents: 1000,
      discount_cents: 0,
      shipping_cents: 0,
      total_cents: 1000,
      shipping_name: 'Ada',
      shipping_email: 'ada@example.com',
      shipping_address1: '1 Street',
      shipping_address2: null,
      shipping_city: 'Paris',
      shipping_postal_code: '75001',
      shipping_country: 'FR',
      card_brand: 'visa',
      card_last4: '4242',
      instant_pay_variant: instantPayVariant,
      checkout_flow: null,
      created_at: at,
    })
    .execute();
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database, flags: { now: () => NOW } });

  // Session A: a shopper who saw instant_pay=b, added to cart, failed once, then ordered.
  await sendRum([
    createRumView({ sessionId: 'sess-a', viewId: 'a-1', date: T0, flags: { instant_pay: 'b' } }),
    createRumView({
      sessionId: 'sess-a',
      viewId: 'a-1',
      date: T0,
      version: 4,
      lcpNs: 1_234_560_000,
      actions: 1,
      flags: { instant_pay: 'b', personal_recommendations: 1 },
    }),
    createRumAction('add to cart', {
      sessionId: 'sess-a',
      viewId: 'a-1',
      date: T0 + 1000,
      context: { amount_cents: 12_900, currency: 'EUR', product_id: 3 },
    }),
    createRumError('Card declined', { sessionId: 'sess-a', viewId: 'a-2', date: T0 + 3000 }),
    createRumVital('checkout', { sessionId: 'sess-a', viewId: 'a-2', date: T0 + 3500 }),
    createRumView({
      sessionId: 'sess-a',
      viewId: 'a-2',
      date: T0 + 2000,
      url: 'http://localhost:3000/checkout',
      lcpNs: 600_000_000,
    }),
    createRumAction('place order', {
      sessionId: 'sess-a',
      viewId: 'a-2',
      date: T0 + 4000,
      context: { amount_cents: 12_900, instant_pay_variant: 'b' },
    }),
  ]);
  // Session B: anonymous, saw instant_pay=a, no order. Session C: saw c, ordered (credited by flags).
  await sendRum([
    createRumView({
      sessionId: 'sess-b',
      viewId: 'b-1',
      date: T0 + 10_000,
      usr: null,
      flags: { instant_pay: 'a' },
    }),
    createRumView({
      sessionId: 'sess-c',
      viewId: 'c-1',
      date: T0 + 20_000,
      flags: { instant_pay: 'c' },
    }),
    createRumAction('place order', {
      sessionId: 'sess-c',
      viewId: 'c-1',
      date: T0 + 21_000,
      flags: { instant_pay: 'c' },
    }),
  ]);
  // Session D: the placeholder identity (isJohnDoe): a name and e-mail, no id — not anonymous.
  await sendRum([
    createRumView({
      sessionId: 'sess-d',
      viewId: 'd-1',
      date: T0 + 5000,
      usr: { name: 'John Doe', email: 'john.doe@example.com', anonymous_id: 'x' },
    }),
  ]);
  await insertOrder('ord_1', 'b');
  await insertOrder('ord_2', 'b');
  await insertOrder('ord_3', null);
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('GET /monitoring/sessions', () => {
  it('lists sessions newest first with shopper, anonymity, flags, counts and worst LCP', async () => {
    const res = await app.inject({ method: 'GET', url: '/monitoring/sessions' });
    expect(res.statusCode).toBe(200);
    const { sessions } = res.json();
    expect(sessions.map((s: { id: string }) => s.id)).toEqual([
      'sess-c',
      'sess-b',
      'sess-d',
      'sess-a',
    ]);
    expect(sessions[3]).toEqual({
      id: 'sess-a',
      firstSeen: T0,
      lastSeen: T0 + 4000,
      shopper: SAMPLE_SHOPPER,
      anonymous: false,
      flags: { instant_pay: ['b'], personal_recommendations: ['1'] },
      viewCount: 2,
      actionCount: 2,
      errorCount: 1,
      lcpMs: 1234.56,
      hasReplay: false,
      service: 'showroom-web',
      version: '6.1.15-rc',
    });
    expect(sessions[1]).toMatchObject({ id: 'sess-b', shopper: null, anonymous: true });
    expect(sessions[2]).toMatchObject({
      id: 'sess-d',
      shopper: { id: null, name: 'John Doe', team: null },
      anonymous: false,
    });
  });

  it('honours the limit and refuses one out of range', async () => {
    const one = await app.inject({ method: 'GET', url: '/monitoring/sessions?limit=1' });
    expect(one.json().sessions).toHaveLength(1);
    const bad = await app.inject({ method: 'GET', url: '/monitoring/sessions?limit=501' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field).toBe('limit');
  });
});

describe('GET /monitoring/sessions/:sessionId', () => {
  it('answers the views and a timeline of views, actions, errors, vitals and flags in order', async () => {
    const res = await app.inject({ method: 'GET', url: '/monitoring/sessions/sess-a' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.session.id).toBe('sess-a');
    expect(body.views).toHaveLength(2);
    expect(body.views[0]).toMatchObject({ id: 'a-1', documentVersion: 4, lcpMs: 1234.56 });
    expect(
      body.timeline.map((entry: { kind: string; title: string }) => [entry.kind, entry.title]),
    ).toEqual([
      ['view', '/department/tables'],
      ['flag', 'instant_pay = b'],
      ['flag', 'personal_recommendations = 1'],
      ['action', 'add to cart'],
      ['view', '/checkout'],
      ['error', 'Card declined'],
      ['vital', 'checkout'],
      ['action', 'place order'],
    ]);
    const addToCart = body.timeline.find(
      (entry: { title: string }) => entry.title === 'add to cart',
    );
    expect(addToCart.detail).toMatchObject({ actionType: 'custom', amount_cents: 12_900 });
    // Every view, action and error says who the shopper was; views carry their flags.
    for (const entry of body.timeline.filter((e: { kind: string }) => e.kind !== 'flag')) {
      expect(entry.usrId).toBe(SAMPLE_SHOPPER.id);
      // The whole `usr` the event carried (decision 008: tier and membership ride along).
      expect(entry.usr).toMatchObject(SAMPLE_SHOPPER);
    }
    expect(body.timeline[0].featureFlags).toEqual({
      instant_pay: 'b',
      personal_recommendations: 1,
    });
  });

  it('answers 404 for an unknown session and 400 for a malformed id', async () => {
    const missing = await app.inject({ method: 'GET', url: '/monitoring/sessions/nope' });
    expect(missing.statusCode).toBe(404);
    const bad = await app.inject({ method: 'GET', url: '/monitoring/sessions/a%20b' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /monitoring/stats', () => {
  it('counts sessions per flag variant and conversion per instant_pay variant', async () => {
    const res = await app.inject({ method: 'GET', url: '/monitoring/stats' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      generatedAt: NOW,
      sessions: { total: 4, anonymous: 1 },
      flags: [
        {
          key: 'instant_pay',
          variants: [
            { variant: 'a', sessions: 1 },
            { variant: 'b', sessions: 1 },
            { variant: 'c', sessions: 1 },
          ],
        },
        { key: 'personal_recommendations', variants: [{ variant: '1', sessions: 1 }] },
      ],
      instantPay: [
        { variant: 'a', sessions: 1, orderedSessions: 0, conversion: 0, shopOrders: 0 },
        { variant: 'b', sessions: 1, orderedSessions: 1, conversion: 1, shopOrders: 2 },
        { variant: 'c', sessions: 1, orderedSessions: 1, conversion: 1, shopOrders: 0 },
      ],
    });
  });
});

describe('OpenAPI', () => {
  it('documents the monitoring routes under the monitoring tag', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(doc.tags).toContainEqual(expect.objectContaining({ name: 'monitoring' }));
    for (const path of [
      '/monitoring/sessions',
      '/monitoring/sessions/{sessionId}',
      '/monitoring/stats',
    ]) {
      expect(doc.paths[path]?.get?.tags).toEqual(['monitoring']);
    }
  });
});
