import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createRecordingTracer } from '../../test/recording-tracer.js';
import { createCatalogSeed } from '../../test/factories.js';
import {
  createCardPayment,
  createOrderRequest,
  createSampleShopper,
  createShopperAgent,
  createTestShopperDirectory,
  futureExpiry,
  setStock,
  type ShopperAgent,
} from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { seedCatalog } from '../catalog/seed.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from '../flags/definitions.js';
import { createFlagsRepository } from '../flags/repository.js';
import { TEST_CARDS } from '../payments/gateway.js';
import {
  findVerificationCode,
  LOYALTY_TIER_THRESHOLDS,
  LOYALTY_WELCOME_POINTS,
  VERIFICATION_MAX_ATTEMPTS,
  type OutboxList,
  type PendingVerification,
} from '@showroom/contracts/accounts';
import type { Cart } from '@showroom/contracts/cart';
import type { Order } from '@showroom/contracts/orders';
import type { SessionView } from '@showroom/contracts/session';

const PASSWORD = 'correct horse battery staple';
const CARD_NUMBER = TEST_CARDS.succeeds;
const CVC = '8317';

let testDb: TestDatabase;
let app: FastifyInstance;
const { tracer: recordingTracer, ended: spans } = createRecordingTracer();

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  await createFlagsRepository(testDb.database.db).syncDefinitions(
    await readFlagDefinitions(DEFAULT_FLAGS_PATH),
  );
  app = await buildApp({
    database: testDb.database,
    tracer: recordingTracer,
    // The limit has its own test below; here every test signs up and in freely.
    authRateLimitPerMinute: 10_000,
    shopperDirectory: createTestShopperDirectory({
      standard: [createSampleShopper({ id: 'aaaa0001', team: 'design' })],
      loyalty: [createSampleShopper({ id: 'bbbb0001', team: 'support' })],
    }),
  });
  for (const id of [1, 2, 3, 10]) await setStock(testDb.database.db, id, 'standard', 1000);
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

let emailCounter = 0;
const uniqueEmail = () => `ada.${++emailCounter}.${Date.now()}@example.com`;

/** The code in the newest message of the agent's outbox. */
async function latestCode(agent: ShopperAgent): Promise<string> {
  const outbox = (await agent.get('/outbox')).json() as OutboxList;
  const code = findVerificationCode(outbox.messages[0]?.text ?? '');
  if (!code) throw new Error('No code in the outbox');
  return code;
}

/** Signs up as the sample shopper `shopperId` and verifies: a signed-in agent. */
async function signUp(options: { shopperId?: string; email?: string } = {}) {
  const agent = createShopperAgent(app);
  if (options.shopperId) await agent.put('/session/shopper', { shopperId: options.shopperId });
  const email = options.email ?? uniqueEmail();
  const started = await agent.post('/accounts', {
    name: 'Ada Lovelace',
    email,
    password: PASSWORD,
  });
  expect(started.statusCode).toBe(202);
  const verified = await agent.post('/accounts/verification', { code: await latestCode(agent) });
  expect(verified.statusCode).toBe(200);
  return { agent, email, view: verified.json() as SessionView };
}

/** A code that is not the one sent (all codes have six digits). */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('sign-up with an e-mailed code', () => {
  it('sends a six-digit code to the outbox and signs the browser in once it comes back', async () => {
    const agent = createShopperAgent(app);
    await agent.put('/session/shopper', { shopperId: 'aaaa0001' });
    await agent.post('/cart/items', { productId: 3, edition: 'standard', quantity: 2 });
    const anonymousCookie = agent.cookie;
    const email = uniqueEmail();

    const started = await agent.post('/accounts', {
      name: 'Ada Lovelace',
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({
      purpose: 'signup',
      email,
      attemptsLeft: VERIFICATION_MAX_ATTEMPTS,
      delivery: 'outbox',
    } satisfies Partial<PendingVerification>);
    const outbox = (await agent.get('/outbox')).json() as OutboxList;
    expect(outbox.messages).toHaveLength(1);
    expect(outbox.messages[0]).toMatchObject({ to: email });
    const code = findVerificationCode(outbox.messages[0]?.text ?? '');
    expect(code).toMatch(/^\d{6}$/);

    const verified = await agent.post('/accounts/verification', { code });
    expect(verified.statusCode).toBe(200);
    const view = verified.json() as SessionView;
    expect(view.account).toEqual({
      id: expect.stringMatching(/^acc_/),
      email,
      name: 'Ada Lovelace',
    });
    // The sample shopper's team stays with the person; the cart came along.
    expect(view.shopper).toMatchObject({ list: 'account', id: view.account?.id, team: 'design' });
    expect(view.cart.itemCount).toBe(2);
    expect(agent.cookie).not.toBe(anonymousCookie);

    // The cookie known before sign-up does not reach the account.
    const before = createShopperAgent(app);
    const old = await before.request({
      method: 'GET',
      url: '/session',
      headers: { cookie: `showroom_session=${anonymousCookie}` },
    });
    expect((old.json() as SessionView).account).toBeNull();
    expect((old.json() as SessionView).cart.itemCount).toBe(0);
  });

  it('refuses an address an account already has, naming the field', async () => {
    const { email } = await signUp();
    const res = await createShopperAgent(app).post('/accounts', {
      name: 'Someone Else',
      email,
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: 'EMAIL_TAKEN', field: 'email' } });
  });

  it.each([
    [{ name: 'A', email: 'not-an-address', password: PASSWORD }, 'email'],
    [{ name: 'A', email: 'a@example.com', password: 'short' }, 'password'],
    [{ name: ' ', email: 'a@example.com', password: PASSWORD }, 'name'],
    [{ email: 'a@example.com', password: PASSWORD }, 'name'],
  ])('rejects %j with a 400 naming %s and creates nothing', async (body, field) => {
    const agent = createShopperAgent(app);
    const res = await agent.post('/accounts', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field } });
    expect(((await agent.get('/outbox')).json() as OutboxList).messages).toEqual([]);
  });

  it(`locks the code after ${VERIFICATION_MAX_ATTEMPTS} wrong tries, even for the right code`, async () => {
    const agent = createShopperAgent(app);
    await agent.post('/accounts', { name: 'Ada', email: uniqueEmail(), password: PASSWORD });
    const code = await latestCode(agent);
    for (let attempt = 1; attempt < VERIFICATION_MAX_ATTEMPTS; attempt += 1) {
      const res = await agent.post('/accounts/verification', { code: wrongCode(code) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'CODE_INVALID', field: 'code' } });
    }
    const fifth = await agent.post('/accounts/verification', { code: wrongCode(code) });
    expect(fifth.statusCode).toBe(423);
    const right = await agent.post('/accounts/verification', { code });
    expect(right.statusCode).toBe(423);
    expect(right.json()).toMatchObject({ error: { code: 'CODE_LOCKED' } });
    expect(((await agent.get('/session')).json() as SessionView).account).toBeNull();
  });

  it('refuses an expired code and sends a new one at most once a minute', async () => {
    const agent = createShopperAgent(app);
    await agent.post('/accounts', { name: 'Ada', email: uniqueEmail(), password: PASSWORD });
    const code = await latestCode(agent);

    const tooSoon = await agent.post('/verification/resend', { purpose: 'signup' });
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);

    // Ten minutes later (the row's clock moved back instead of waiting).
    const past = new Date(Date.now() - 1000).toISOString();
    await testDb.database.db
      .updateTable('verifications')
      .set({ expires_at: past, resend_after: past })
      .where(
        'email',
        '=',
        (await agent.get('/accounts/verification')).json<{ email: string }>().email,
      )
      .execute();
    const expired = await agent.post('/accounts/verification', { code });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ error: { code: 'CODE_EXPIRED' } });

    const resent = await agent.post('/verification/resend', { purpose: 'signup' });
    expect(resent.statusCode).toBe(202);
    const fresh = await latestCode(agent);
    if (fresh !== code) {
      expect((await agent.post('/accounts/verification', { code })).statusCode).toBe(400);
    }
    expect((await agent.post('/accounts/verification', { code: fresh })).statusCode).toBe(200);
  });
});

describe('sign-in and sign-out', () => {
  it('signs in from a fresh browser to the same data, merging its cart', async () => {
    const { agent, email } = await signUp({ shopperId: 'aaaa0001' });
    await agent.post('/cart/items', { productId: 1, edition: 'standard', quantity: 1 });
    await agent.post('/payment-methods', { number: CARD_NUMBER, cvc: CVC, ...futureExpiry() });

    const other = createShopperAgent(app);
    await other.post('/cart/items', { productId: 1, edition: 'standard', quantity: 2 });
    await other.post('/cart/items', { productId: 3, edition: 'standard', quantity: 1 });
    const wrong = await other.post('/session/sign-in', { email, password: `${PASSWORD}!` });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: { code: 'INVALID_CREDENTIALS' } });
    const unknown = await other.post('/session/sign-in', {
      email: 'nobody@example.com',
      password: PASSWORD,
    });
    expect(unknown.json()).toEqual(wrong.json());

    const signedIn = await other.post('/session/sign-in', { email, password: PASSWORD });
    expect(signedIn.statusCode).toBe(200);
    expect((signedIn.json() as SessionView).account?.email).toBe(email);
    const cart = (await other.get('/cart')).json() as Cart;
    expect(cart.lines.map((line) => [line.productId, line.quantity]).sort()).toEqual([
      [1, 3],
      [3, 1],
    ]);
    const cards = (await other.get('/payment-methods')).json() as { paymentMethods: unknown[] };
    expect(cards.paymentMethods).toHaveLength(1);
    // Both browsers see the same account data.
    expect(((await agent.get('/cart')).json() as Cart).itemCount).toBe(4);

    const out = await other.post('/session/sign-out');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ account: null, shopper: null, cart: { itemCount: 0 } });
    expect(
      ((await other.get('/payment-methods')).json() as { paymentMethods: unknown[] })
        .paymentMethods,
    ).toEqual([]);
    expect(((await agent.get('/session')).json() as SessionView).account?.email).toBe(email);
  });

  it('does not let a signed-in browser bind a sample shopper over the account', async () => {
    const { agent, view } = await signUp();
    const res = await agent.put('/session/shopper', { shopperId: 'aaaa0001' });
    expect((res.json() as SessionView).shopper?.id).toBe(view.account?.id);
  });
});

describe('authorization: only the owner sees its data', () => {
  it('answers 404 to a second session for the first one’s profile, orders, cards, outbox and membership', async () => {
    const { agent, view } = await signUp({ shopperId: 'aaaa0001' });
    await agent.post('/cart/items', { productId: 3, edition: 'standard' });
    const order = (await agent.post('/checkout/orders', createOrderRequest())).json() as Order;
    const card = (
      await agent.post('/payment-methods', { number: CARD_NUMBER, cvc: CVC, ...futureExpiry() })
    ).json() as { id: string };
    const message = ((await agent.get('/outbox')).json() as OutboxList).messages[0];
    const membership = (await agent.post('/loyalty', { consent: true })).json() as { id: string };
    const accountId = view.account?.id ?? '';

    const owned = [
      `/accounts/${accountId}`,
      `/orders/${order.id}`,
      `/outbox/${message?.id ?? ''}`,
      `/loyalty/memberships/${membership.id}`,
    ];
    for (const url of owned) expect((await agent.get(url)).statusCode, url).toBe(200);

    for (const other of [createShopperAgent(app), (await signUp()).agent]) {
      for (const url of owned) expect((await other.get(url)).statusCode, url).toBe(404);
      expect((await other.put(`/payment-methods/${card.id}/default`, {})).statusCode).toBe(404);
      expect((await other.delete(`/payment-methods/${card.id}`)).statusCode).toBe(404);
      const profile = (await other.get('/profile')).json() as { id: string | null };
      expect(profile.id).not.toBe(accountId);
      expect(
        ((await other.get('/outbox')).json() as OutboxList).messages.map((m) => m.id),
      ).not.toContain(message?.id);
    }
    expect((await agent.get(`/orders/${order.id}`)).statusCode).toBe(200);
  });

  it('keeps no card number, CVC or clear password anywhere in the database', async () => {
    const { agent } = await signUp();
    await agent.post('/payment-methods', { number: CARD_NUMBER, cvc: CVC, ...futureExpiry() });
    await agent.post('/cart/items', { productId: 3, edition: 'standard' });
    await agent.post(
      '/checkout/orders',
      createOrderRequest({
        payment: createCardPayment({ number: CARD_NUMBER, cvc: CVC, saveCard: true }),
      }),
    );
    const digits = CARD_NUMBER.replace(/\D/g, '');
    const tables = [
      'sessions',
      'accounts',
      'verifications',
      'outbox_messages',
      'payment_methods',
      'orders',
      'payments',
      'idempotency_keys',
      'loyalty_memberships',
      'loyalty_points',
    ] as const;
    for (const table of tables) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
        testDb.database.db,
      );
      for (const row of rows.rows) {
        for (const [column, value] of Object.entries(row)) {
          const text = String(value);
          expect(text.replace(/\D/g, ''), `${table}.${column}`).not.toContain(digits);
          expect(text, `${table}.${column}`).not.toContain(PASSWORD);
          expect(text, `${table}.${column}`).not.toBe(CVC);
        }
        expect(Object.keys(row).some((column) => /cvc|card_number|password$/.test(column))).toBe(
          false,
        );
      }
    }
    const stored = await testDb.database.db
      .selectFrom('accounts')
      .select('password_hash')
      .execute();
    for (const { password_hash } of stored) expect(password_hash).toMatch(/^scrypt\$/);
  });
});

describe('sign-in rate limit', () => {
  it('counts the attempts of every replica on one database together', async () => {
    await testDb.database.db.deleteFrom('rate_limits').execute();
    const replicas = [
      await buildApp({ database: testDb.database }),
      await buildApp({ database: testDb.database }),
    ];
    try {
      const agents = replicas.map((replica) => createShopperAgent(replica));
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt += 1) {
        const res = await agents[attempt % 2]!.post('/session/sign-in', {
          email: 'nobody@example.com',
          password: 'wrong password',
        });
        statuses.push(res.statusCode);
      }
      // Each replica saw 5 or 6 attempts; together they are 11.
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });

  it('answers the 11th sign-in attempt within a minute with 429 and Retry-After', async () => {
    // The counts live in the database (shared by replicas): start from none.
    await testDb.database.db.deleteFrom('rate_limits').execute();
    const limited = await buildApp({ database: testDb.database });
    try {
      const agent = createShopperAgent(limited);
      const statuses: number[] = [];
      for (let attempt = 1; attempt <= 11; attempt += 1) {
        const res = await agent.post('/session/sign-in', {
          email: 'nobody@example.com',
          password: 'wrong password',
        });
        statuses.push(res.statusCode);
        if (attempt === 11) {
          expect(res.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('profile', () => {
  it('is the sample shopper from the first visit', async () => {
    const agent = createShopperAgent(app);
    await agent.put('/session/shopper', { shopperId: 'aaaa0001' });
    expect((await agent.get('/profile')).json()).toMatchObject({
      kind: 'sample',
      id: 'aaaa0001',
      name: 'Shopper aaaa0001',
      team: 'design',
      tier: 'none',
      loyaltyMember: false,
    });
  });

  it('edits name and address, and changes the e-mail only once the new address confirms', async () => {
    const { agent, email } = await signUp();
    const address = {
      address1: '1 Analytical Row',
      city: 'London',
      postalCode: 'N1 9GU',
      country: 'GB',
    };
    const newEmail = uniqueEmail();
    const res = await agent.patch('/profile', { name: 'Ada King', address, email: newEmail });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      profile: { name: 'Ada King', email, address, pendingEmail: newEmail },
      verification: { purpose: 'email-change', email: newEmail },
    });
    const outbox = (await agent.get('/outbox')).json() as OutboxList;
    expect(outbox.messages[0]?.to).toBe(newEmail);
    const code = findVerificationCode(outbox.messages[0]?.text ?? '') ?? '';
    expect(
      (await agent.post('/profile/email-verification', { code: wrongCode(code) })).statusCode,
    ).toBe(400);
    const confirmed = await agent.post('/profile/email-verification', { code });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ email: newEmail, pendingEmail: null });
    expect(((await agent.get('/session')).json() as SessionView).account?.email).toBe(newEmail);
    // Signing in takes the new address.
    const other = createShopperAgent(app);
    expect(
      (await other.post('/session/sign-in', { email: newEmail, password: PASSWORD })).statusCode,
    ).toBe(200);
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ email: 'nope' }, 'email'],
    [
      { address: { address1: '1 Row', city: 'London', postalCode: '!', country: 'GB' } },
      'address.postalCode',
    ],
    [
      { address: { address1: '1 Row', city: 'London', postalCode: 'N1 9GU', country: 'XX' } },
      'address.country',
    ],
  ])('rejects %j with a 400 naming %s and changes nothing', async (body, field) => {
    const agent = createShopperAgent(app);
    await agent.put('/session/shopper', { shopperId: 'aaaa0001' });
    const before = (await agent.get('/profile')).json() as unknown;
    const res = await agent.patch('/profile', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field } });
    expect((await agent.get('/profile')).json()).toEqual(before);
  });
});

describe('loyalty programme', () => {
  it('earns a point per whole unit of each order and moves the persona through the tiers', async () => {
    const { agent, view } = await signUp({ shopperId: 'aaaa0001' });
    expect((await agent.post('/loyalty', { consent: false })).statusCode).toBe(400);
    const joined = await agent.post('/loyalty', { consent: true, birthday: '1990-12-10' });
    expect(joined.statusCode).toBe(201);
    expect(joined.json()).toMatchObject({ tier: 'bronze', points: 0, birthday: '1990-12-10' });
    expect((await agent.post('/loyalty', { consent: true })).statusCode).toBe(409);

    // 3 × 900.00 = 2,700.00: gold.
    await agent.post('/cart/items', { productId: 10, edition: 'standard', quantity: 3 });
    const order = (await agent.post('/checkout/orders', createOrderRequest())).json() as Order;
    const points = Math.floor(order.totalCents / 100);
    expect(points).toBeGreaterThanOrEqual(LOYALTY_TIER_THRESHOLDS.gold);
    const status = (await agent.get('/loyalty')).json() as {
      membership: { points: number; tier: string; history: { points: number; orderId: string }[] };
    };
    expect(status.membership).toMatchObject({ points, tier: 'gold' });
    expect(status.membership.history[0]).toMatchObject({ points, orderId: order.id });
    expect(((await agent.get('/session')).json() as SessionView).shopper).toMatchObject({
      id: view.account?.id,
      tier: 'gold',
      loyaltyMember: true,
    });

    // The persona is on the api's spans.
    spans.length = 0;
    await agent.get('/cart');
    expect(spans.find((span) => span.route === '/cart')?.attributes).toMatchObject({
      'usr.id': view.account?.id,
      'usr.tier': 'gold',
    });
  });

  it('invites shoppers from the loyalty list first, with a welcome bonus', async () => {
    const agent = createShopperAgent(app);
    await agent.put('/session/shopper', { shopperId: 'bbbb0001' });
    expect((await agent.get('/loyalty')).json()).toEqual({ membership: null, invited: true });
    const joined = await agent.post('/loyalty', { consent: true });
    expect(joined.json()).toMatchObject({
      points: LOYALTY_WELCOME_POINTS,
      history: [{ reason: 'welcome', points: LOYALTY_WELCOME_POINTS }],
    });
    const plain = createShopperAgent(app);
    await plain.put('/session/shopper', { shopperId: 'aaaa0001' });
    expect((await plain.get('/loyalty')).json()).toEqual({ membership: null, invited: false });
  });

  it.each(['2999-01-01', '1990-02-30'])(
    'refuses the birthday %s, naming the field',
    async (birthday) => {
      const agent = createShopperAgent(app);
      const res = await agent.post('/loyalty', { consent: true, birthday });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { field: 'birthday' } });
      expect((await agent.get('/loyalty')).json()).toMatchObject({ membership: null });
    },
  );
});

describe('a flag rule on tier (apps/api/flags/checkout.json: gold members ship free)', () => {
  it('assigns differently for a gold member and a new shopper in the api’s own pricing', async () => {
    const gold = (await signUp({ shopperId: 'aaaa0001' })).agent;
    await gold.post('/loyalty', { consent: true });
    const membership = await testDb.database.db
      .selectFrom('loyalty_memberships')
      .innerJoin('accounts', 'accounts.owner_session_id', 'loyalty_memberships.session_id')
      .select('loyalty_memberships.id')
      .where(
        'accounts.email',
        '=',
        ((await gold.get('/session')).json() as SessionView).account?.email ?? '',
      )
      .executeTakeFirstOrThrow();
    await testDb.database.db
      .updateTable('loyalty_memberships')
      .set({ points: LOYALTY_TIER_THRESHOLDS.gold })
      .where('id', '=', membership.id)
      .execute();
    const fresh = createShopperAgent(app);
    await fresh.put('/session/shopper', { shopperId: 'aaaa0001' });

    const carts: Cart[] = [];
    for (const agent of [gold, fresh]) {
      await agent.post('/cart/items', { productId: 3, edition: 'standard', quantity: 1 });
      carts.push((await agent.get('/cart')).json() as Cart);
    }
    const [goldCart, freshCart] = carts;
    expect(goldCart?.freeShippingThresholdCents).toBe(0);
    expect(goldCart?.shippingCents).toBe(0);
    expect(freshCart?.freeShippingThresholdCents).toBe(50_000);
    expect(freshCart?.shippingCents).toBeGreaterThan(0);
  });
});
