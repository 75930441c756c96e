import { sql, type Insertable, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.js';
import { seedCatalog } from '../catalog/seed.js';
import { createCatalogSeed } from '../../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createRetention, PURGE_TARGETS, type RetentionSettings } from './retention.js';

/**
 * The growth requirement (docs/requirements.md, docs/architecture.md "Scaling"): a shop left
 * running under traffic for days keeps a bounded database. Simulated days of traffic are written
 * straight into the tables with a clock we move, then the purge runs as the job would.
 */

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const SETTINGS: RetentionSettings = {
  sessionsDays: 3,
  idempotencyHours: 24,
  outboxDays: 2,
  monitoringDays: 2,
  batchSize: 500,
};

/** One simulated day of traffic. */
const SESSIONS_PER_DAY = 500;
const ORDER_EVERY = 10; // every 10th session orders (an order, its line, payment and key)
const CART_EVERY = 3; // every 3rd session leaves 2 cart lines
const MAIL_EVERY = 15; // every 15th session gets a verification mail
const LOYALTY_EVERY = 50; // every 50th joins the loyalty programme
const RUM_VIEWS = 2;
const RUM_EVENTS = 16;
const RUM_FLAGS = 3;
const INTAKE_EVENTS = 2;
const EXPOSURES = 2;
const EVALUATIONS = 2;

type Counted =
  | 'sessions'
  | 'cart_lines'
  | 'orders'
  | 'order_lines'
  | 'payments'
  | 'accounts'
  | 'idempotency_keys'
  | 'outbox_messages'
  | 'loyalty_memberships'
  | 'loyalty_points'
  | 'rum_sessions'
  | 'rum_views'
  | 'rum_events'
  | 'rum_session_flags'
  | 'intake_events'
  | 'flag_exposures'
  | 'flag_evaluations'
  | 'tracking_events';
const COUNTED: Counted[] = [
  'sessions',
  'cart_lines',
  'orders',
  'order_lines',
  'payments',
  'accounts',
  'idempotency_keys',
  'outbox_messages',
  'loyalty_memberships',
  'loyalty_points',
  'rum_sessions',
  'rum_views',
  'rum_events',
  'rum_session_flags',
  'intake_events',
  'flag_exposures',
  'flag_evaluations',
  'tracking_events',
];

async function insertMany<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  // 100 rows per INSERT keeps PostgreSQL far under its 65,535 bind parameters.
  for (let i = 0; i < rows.length; i += 100) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 100) as never)
      .execute();
  }
}

/** Writes day `day`'s traffic: every row's time is inside that day (10%–90% of it). */
async function writeDay(db: Kysely<Database>, day: number): Promise<number> {
  const at = (i: number, n: number) => T0 + day * DAY + DAY * (0.1 + (0.8 * i) / n);
  const iso = (ms: number) => new Date(ms).toISOString();
  const sessions: Insertable<Database['sessions']>[] = [];
  const cartLines: Insertable<Database['cart_lines']>[] = [];
  const orders: Insertable<Database['orders']>[] = [];
  const orderLines: Insertable<Database['order_lines']>[] = [];
  const payments: Insertable<Database['payments']>[] = [];
  const keys: Insertable<Database['idempotency_keys']>[] = [];
  const mail: Insertable<Database['outbox_messages']>[] = [];
  const memberships: Insertable<Database['loyalty_memberships']>[] = [];
  const points: Insertable<Database['loyalty_points']>[] = [];
  const rumSessions: Insertable<Database['rum_sessions']>[] = [];
  const views: Insertable<Database['rum_views']>[] = [];
  const events: Insertable<Database['rum_events']>[] = [];
  const flags: Insertable<Database['rum_session_flags']>[] = [];
  const intake: Insertable<Database['intake_events']>[] = [];
  const exposures: Insertable<Database['flag_exposures']>[] = [];
  const evaluations: Insertable<Database['flag_evaluations']>[] = [];
  const tracking: Insertable<Database['tracking_events']>[] = [];

  for (let i = 0; i < SESSIONS_PER_DAY; i++) {
    const ms = at(i, SESSIONS_PER_DAY);
    const time = iso(ms);
    const id = `ses_d${day}_${i}`;
    sessions.push({
      id,
      created_at: time,
      updated_at: time,
      shopper_id: null,
      shopper_list: null,
      shopper_name: null,
      shopper_email: null,
      shopper_team: null,
      shopper_use_discount: 0,
      shopper_use_new_checkout_flow: 0,
    });
    if (i % CART_EVERY === 0) {
      for (const product of [1, 2]) {
        cartLines.push({
          id: `cl_${id}_${product}`,
          session_id: id,
          product_id: product,
          edition: 'standard',
          quantity: 1,
          created_at: time,
        });
      }
    }
    if (i % ORDER_EVERY === 0) {
      const order = `ord_${id}`;
      orders.push({
        id: order,
        session_id: id,
        shopper_id: null,
        status: 'paid',
        currency: 'USD',
        subtotal_cents: 30_000,
        discount_cents: 0,
        shipping_cents: 0,
        total_cents: 30_000,
        shipping_name: 'Test Shopper',
        shipping_email: 'shopper@example.com',
        shipping_address1: '1 Test Street',
        shipping_address2: null,
        shipping_city: 'Testville',
        shipping_postal_code: '12345',
        shipping_country: 'US',
        card_brand: 'visa',
        card_last4: '4242',
        instant_pay_variant: null,
        checkout_flow: null,
        created_at: time,
      });
      orderLines.push({
        id: `ol_${order}`,
        order_id: order,
        position: 0,
        product_id: 1,
        edition: 'standard',
        name: 'Birch Desk',
        unit_price_cents: 30_000,
        quantity: 1,
        line_total_cents: 30_000,
      });
      payments.push({
        id: `pay_${order}`,
        order_id: order,
        session_id: id,
        amount_cents: 30_000,
        currency: 'USD',
        status: 'captured',
        method: 'card',
        card_brand: 'visa',
        card_last4: '4242',
        gateway_charge_id: `ch_${order}`,
        created_at: time,
      });
      keys.push({
        session_id: id,
        key: `key_${order}`,
        request_fingerprint: 'fp',
        status_code: 201,
        response_body: '{}',
        created_at: time,
      });
    }
    if (i % MAIL_EVERY === 0) {
      mail.push({
        id: `msg_${id}`,
        session_id: id,
        to_address: 'shopper@example.com',
        subject: 'Your code',
        body_text: 'Your code is 123456',
        created_at: time,
      });
    }
    if (i % LOYALTY_EVERY === 0) {
      memberships.push({
        id: `mem_${id}`,
        session_id: id,
        points: 100,
        birthday: null,
        joined_at: time,
      });
      points.push({
        id: `pts_${id}`,
        membership_id: `mem_${id}`,
        points: 100,
        reason: 'welcome',
        order_id: null,
        created_at: time,
      });
    }

    const rum = `rum_d${day}_${i}`;
    rumSessions.push({
      id: rum,
      application_id: 'app',
      first_seen: ms,
      last_seen: ms,
      usr_id: null,
      usr_name: null,
      usr_email: null,
      usr_team: null,
      service: 'showroom',
      version: '1',
      received_at: ms,
    });
    for (let v = 0; v < RUM_VIEWS; v++) {
      views.push({
        id: `${rum}_v${v}`,
        session_id: rum,
        document_version: 3,
        date: ms,
        url: 'http://localhost:3000/',
        name: '/',
        loading_time: 1_000_000,
        first_contentful_paint: null,
        largest_contentful_paint: null,
        interaction_to_next_paint: null,
        cumulative_layout_shift: null,
        time_spent: null,
        action_count: 1,
        error_count: 0,
        usr_id: null,
        feature_flags: null,
        payload: '{"type":"view"}',
        received_at: ms,
      });
    }
    for (let e = 0; e < RUM_EVENTS; e++) {
      events.push({
        event_key: `action:${rum}_${e}`,
        session_id: rum,
        view_id: `${rum}_v0`,
        event_type: 'action',
        date: ms,
        name: 'add to cart',
        usr_id: null,
        feature_flags: null,
        payload: '{"type":"action"}',
        received_at: ms,
      });
    }
    for (let f = 0; f < RUM_FLAGS; f++) {
      flags.push({
        session_id: rum,
        flag_key: `flag_${f}`,
        variant: 'on',
        first_seen: ms,
        last_seen: ms,
      });
    }
    for (let e = 0; e < INTAKE_EVENTS; e++) {
      intake.push({
        track: 'rum',
        event_type: 'telemetry',
        session_id: rum,
        payload: '{}',
        received_at: ms,
      });
    }
    for (let e = 0; e < EXPOSURES; e++) {
      exposures.push({
        flag_key: `flag_${e}`,
        allocation_key: 'a',
        variant_key: 'on',
        subject_id: id,
        subject_attributes: '{}',
        timestamp: ms,
        service: 'showroom',
        received_at: ms,
      });
    }
    tracking.push({
      targeting_key: id,
      name: 'purchase',
      value_cents: 1_000,
      currency: 'EUR',
      details: null,
      timestamp: ms,
      received_at: ms,
    });
    for (let e = 0; e < EVALUATIONS; e++) {
      evaluations.push({
        flag_key: `flag_${e}`,
        variant_key: 'on',
        allocation_key: 'a',
        targeting_rule_key: null,
        targeting_key: id,
        evaluation_count: 1,
        first_evaluation: ms,
        last_evaluation: ms,
        runtime_default_used: 0,
        error_message: null,
        context: null,
        timestamp: ms,
        received_at: ms,
      });
    }
  }
  // One sign-up a day: the account's data owner row (never purged) and its account.
  const owner = `ses_d${day}_owner`;
  const ownerTime = iso(at(0, 1));
  sessions.push({
    id: owner,
    created_at: ownerTime,
    updated_at: ownerTime,
    shopper_id: null,
    shopper_list: null,
    shopper_name: null,
    shopper_email: null,
    shopper_team: null,
    shopper_use_discount: 0,
    shopper_use_new_checkout_flow: 0,
    kind: 'account',
  });

  await insertMany(db, 'sessions', sessions);
  await insertMany(db, 'accounts', [
    {
      id: `acc_d${day}`,
      email: `shopper${day}@example.com`,
      name: 'Shopper',
      password_hash: 'x',
      owner_session_id: owner,
      team: 'sales',
      use_discount: 0,
      use_new_checkout_flow: 0,
      created_at: ownerTime,
      updated_at: ownerTime,
    },
  ]);
  await insertMany(db, 'cart_lines', cartLines);
  await insertMany(db, 'orders', orders);
  await insertMany(db, 'order_lines', orderLines);
  await insertMany(db, 'payments', payments);
  await insertMany(db, 'idempotency_keys', keys);
  await insertMany(db, 'outbox_messages', mail);
  await insertMany(db, 'loyalty_memberships', memberships);
  await insertMany(db, 'loyalty_points', points);
  await insertMany(db, 'rum_sessions', rumSessions);
  await insertMany(db, 'rum_views', views);
  await insertMany(db, 'rum_events', events);
  await insertMany(db, 'rum_session_flags', flags);
  await insertMany(db, 'intake_events', intake);
  await insertMany(db, 'flag_exposures', exposures);
  await insertMany(db, 'flag_evaluations', evaluations);
  await insertMany(db, 'tracking_events', tracking);
  return [
    sessions,
    [owner],
    cartLines,
    orders,
    orderLines,
    payments,
    keys,
    mail,
    memberships,
    points,
    rumSessions,
    views,
    events,
    flags,
    intake,
    exposures,
    evaluations,
    tracking,
  ].reduce((total, rows) => total + rows.length, 0);
}

type Counts = Record<Counted, number>;

async function countRows(db: Kysely<Database>): Promise<Counts> {
  const counts = {} as Counts;
  for (const table of COUNTED) {
    const { rows } = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(
      table,
    )}`.execute(db);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/**
 * What must remain after a purge at the end of day `last` once days 0..last were written:
 * a row of day k stays when k > last - retention days.
 */
function expectedAfterPurge(last: number): Counts {
  const days = (retentionDays: number) => Math.min(retentionDays, last + 1);
  const perDay = (every: number) => Math.ceil(SESSIONS_PER_DAY / every);
  const allDays = last + 1;
  const recentSessionDays = days(SETTINGS.sessionsDays);
  const oldSessionDays = allDays - recentSessionDays;
  const monitoringDays = days(SETTINGS.monitoringDays);
  // Old sessions stay only when they ordered (every ORDER_EVERY-th: indexes divisible by 10,
  // so also by the loyalty and cart periods' common multiples where they coincide).
  const orderSessions = perDay(ORDER_EVERY);
  const oldKept = (every: number) => Math.ceil(SESSIONS_PER_DAY / lcm(every, ORDER_EVERY));
  return {
    sessions:
      allDays /* owners */ + recentSessionDays * SESSIONS_PER_DAY + oldSessionDays * orderSessions,
    cart_lines: 2 * (recentSessionDays * perDay(CART_EVERY) + oldSessionDays * oldKept(CART_EVERY)),
    orders: allDays * orderSessions,
    order_lines: allDays * orderSessions,
    payments: allDays * orderSessions,
    accounts: allDays,
    idempotency_keys: days(1) * orderSessions,
    outbox_messages: days(SETTINGS.outboxDays) * perDay(MAIL_EVERY),
    loyalty_memberships:
      recentSessionDays * perDay(LOYALTY_EVERY) + oldSessionDays * oldKept(LOYALTY_EVERY),
    loyalty_points:
      recentSessionDays * perDay(LOYALTY_EVERY) + oldSessionDays * oldKept(LOYALTY_EVERY),
    rum_sessions: monitoringDays * SESSIONS_PER_DAY,
    rum_views: monitoringDays * SESSIONS_PER_DAY * RUM_VIEWS,
    rum_events: monitoringDays * SESSIONS_PER_DAY * RUM_EVENTS,
    rum_session_flags: monitoringDays * SESSIONS_PER_DAY * RUM_FLAGS,
    intake_events: monitoringDays * SESSIONS_PER_DAY * INTAKE_EVENTS,
    flag_exposures: monitoringDays * SESSIONS_PER_DAY * EXPOSURES,
    flag_evaluations: monitoringDays * SESSIONS_PER_DAY * EVALUATIONS,
    tracking_events: monitoringDays * SESSIONS_PER_DAY,
  };
}

function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a * b) / gcd(a, b);
}

const fmt = (n: number) => n.toLocaleString('en-US');

describe('retention purge', () => {
  let testDb: TestDatabase;
  let db: Kysely<Database>;
  let clock = T0;
  const label = () => (testDb.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite');

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = testDb.database.db;
    await seedCatalog(db, createCatalogSeed());
  });
  afterAll(async () => {
    await testDb.destroy();
  });

  it('drops rate-limit counters a day after their window started', async () => {
    const now = T0 + 10 * DAY;
    await db
      .insertInto('rate_limits')
      .values([
        { key: 'POST/session/sign-in-10.0.0.1', window_start: now - DAY - 1, hits: 3 },
        { key: 'POST/session/sign-in-10.0.0.2', window_start: now - 60_000, hits: 1 },
      ])
      .execute();
    const result = await createRetention(db, SETTINGS, () => now).purge();
    expect(result.deleted.rate_limits).toBe(1);
    const left = await db.selectFrom('rate_limits').select('key').execute();
    expect(left.map((row) => row.key)).toEqual(['POST/session/sign-in-10.0.0.2']);
    await db.deleteFrom('rate_limits').execute();
  });

  it('purges a backlog of days in bounded batches, keeps recent rows, orders and accounts', async () => {
    const retention = createRetention(db, SETTINGS, () => clock);
    // A shop that ran six days before the purge existed.
    const backlogDays = 6;
    for (let day = 0; day < backlogDays; day++) await writeDay(db, day);
    clock = T0 + backlogDays * DAY;
    const before = await countRows(db);
    const result = await retention.purge();
    const after = await countRows(db);

    console.log(
      `purge (${label()}): ${COUNTED.filter((table) => before[table] !== after[table])
        .map((table) => `${table.replace(/_/g, ' ')} ${fmt(before[table])} → ${fmt(after[table])}`)
        .join(', ')}; ${result.statements} statements, ${Math.round(result.ms)} ms`,
    );

    expect(after).toEqual(expectedAfterPurge(backlogDays - 1));
    // Orders, their lines and payments, and accounts are never purged.
    for (const table of ['orders', 'order_lines', 'payments', 'accounts'] as const) {
      expect(after[table]).toBe(before[table]);
    }
    // Batches: a target with n expired rows takes floor(n / batchSize) full statements and a
    // last, partial one — never one statement for everything.
    expect(result.statements).toBe(
      PURGE_TARGETS.reduce(
        (total, name) => total + Math.floor(result.deleted[name] / SETTINGS.batchSize) + 1,
        0,
      ),
    );
    expect(result.statements).toBeGreaterThan(PURGE_TARGETS.length + 50);
    expect(result.deleted.rum_events).toBe(before.rum_events - after.rum_events);

    // A second pass finds nothing: deleting is idempotent (a second replica's pass is a no-op).
    const again = await retention.purge();
    expect(Object.values(again.deleted).every((n) => n === 0)).toBe(true);
    expect(await countRows(db)).toEqual(after);
  }, 180_000);

  it('keeps the row count bounded while traffic goes on for days', async () => {
    const retention = createRetention(db, SETTINGS, () => clock);
    const firstDay = 6;
    const lastDay = 13;
    let written = 0;
    let peak = 0;
    const aging: number[] = [];
    const kept: number[] = [];
    for (let day = firstDay; day <= lastDay; day++) {
      written += await writeDay(db, day);
      clock = T0 + (day + 1) * DAY;
      peak = Math.max(peak, sum(await countRows(db)));
      // Two replicas purging one database at once: neither fails, nothing is deleted twice.
      const [first, second] = await Promise.all([
        retention.purge(),
        createRetention(db, SETTINGS, () => clock).purge(),
      ]);
      expect(first.deleted.rum_events + second.deleted.rum_events).toBe(
        SESSIONS_PER_DAY * RUM_EVENTS,
      );
      const after = await countRows(db);
      expect(after).toEqual(expectedAfterPurge(day));
      // Rows that age out: monitoring, keys, mail and the sessions that never ordered.
      const { rows } = await sql<{ n: string | number }>`select count(*) as n from sessions s
        where kind = 'browser' and not exists (select 1 from orders o where o.session_id = s.id)`.execute(
        db,
      );
      const agingRows =
        Number(rows[0]?.n ?? 0) +
        after.idempotency_keys +
        after.outbox_messages +
        after.rum_sessions +
        after.rum_views +
        after.rum_events +
        after.rum_session_flags +
        after.intake_events +
        after.flag_exposures +
        after.flag_evaluations +
        after.tracking_events;
      aging.push(agingRows);
      kept.push(sum(after) - agingRows);
    }
    console.log(
      `purge (${label()}): days ${firstDay}–${lastDay} wrote ${fmt(written)} rows; after each ` +
        `daily purge, rows that age out: ${aging.map(fmt).join(', ')}; kept for good (orders, ` +
        `accounts and what they own): ${kept.map(fmt).join(', ')}; largest before a purge ` +
        `${fmt(peak)}`,
    );
    // Bounded: what ages out is the same after every daily purge, however many days ran —
    // retention days × a day's traffic.
    expect(new Set(aging).size).toBe(1);
    const perDayRum =
      SESSIONS_PER_DAY *
      (1 + RUM_VIEWS + RUM_EVENTS + RUM_FLAGS + INTAKE_EVENTS + EXPOSURES + EVALUATIONS + 1);
    expect(aging[0]).toBeLessThanOrEqual(
      SETTINGS.monitoringDays * perDayRum + SETTINGS.sessionsDays * SESSIONS_PER_DAY * 1.2,
    );
    // Only what orders keep grows, by a day's orders (their sessions, lines, payments…).
    expect(kept.at(-1)! - kept.at(-2)!).toBe(kept[1]! - kept[0]!);
  }, 300_000);
});

function sum(counts: Counts): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}
