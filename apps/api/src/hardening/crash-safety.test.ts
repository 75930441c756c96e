import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { readCatalogSeed, seedCatalog } from '../modules/catalog/seed.js';
import { SESSION_COOKIE } from '@showroom/contracts/security';
import { createOrderRequest, getStock, setStock } from '../test/shop-factories.js';
import { freePort, killAll, startApiProcess, type ApiProcess } from '../test/api-process.js';

/**
 * Crash-safety part of the hardening issue (docs/requirements.md; orders are one transaction
 * with an Idempotency-Key, docs/decisions/003-sessions-money-idempotency.md): the real api runs
 * as a child process (its TypeScript source under tsx, as `npm run dev` does), shoppers place
 * orders over HTTP, the api is killed with SIGKILL in the middle of the load and started again
 * on the same database. Then every order that was answered 201 must exist with all its lines and
 * its payment, nothing may be half-written, stock plus sold units must equal the starting stock,
 * and a retry of every request the kill left unanswered, under its Idempotency-Key, must end in
 * exactly one order. Runs on SQLite (a DATA_DIR of its own) and, when TEST_DATABASE_URL is set,
 * on a PostgreSQL database of its own.
 */

/** How many times the api is killed; CRASH_SAFETY_KILLS raises it for a longer soak. */
const KILLS = Number(process.env.CRASH_SAFETY_KILLS || 2);
/** Shoppers placing orders at the same time. */
const SHOPPERS = 6;
/** Orders acknowledged in a round before the kill (which also waits for some in flight). */
const ACKS_BEFORE_KILL = 15;
/** The ports this suite may use (the hardening issue's range for its child processes). */
const PORTS = { first: 3900, last: 3949 };
/** Two editions every order takes one of: two lines per order. */
const ITEMS = [
  { productId: 1, edition: 'standard' as const, start: 500 },
  { productId: 2, edition: 'special' as const, start: 500 },
];
const SESSION_SECRET = 'crash-safety-session-secret-0123456789abcdef';
const REQUEST_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 120_000;

interface Attempt {
  key: string;
  cookie: string;
  round: number;
  /** The HTTP status, 'pending' while the request runs, 'no answer' when the kill cut it. */
  status: number | 'pending' | 'no answer';
  orderId?: string;
  /** For an unanswered attempt: the status its retry after the restart got. */
  retryStatus?: number;
  /** Whether that retry was answered from the stored answer (the order was committed). */
  retryReplayed?: boolean;
}

let label = 'SQLite';
let store: { database: DatabaseHandle; env: Record<string, string>; destroy(): Promise<void> };
let port = 0;
let api: ApiProcess | undefined;

beforeAll(async () => {
  port = await freePort(PORTS.first, PORTS.last);
  store = await createStore(process.env.TEST_DATABASE_URL);
  label = store.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite';
}, 60_000);

afterAll(async () => {
  await killAll();
  await store?.destroy();
}, 60_000);

describe('crash safety', () => {
  it(
    `keeps every acknowledged order whole through ${KILLS} SIGKILLs of the api`,
    async () => {
      const started = Date.now();
      const attempts: Attempt[] = [];
      let inFlightAtKills = 0;
      let replaysChecked = 0;
      api = await startApi();

      for (let round = 0; round < KILLS; round += 1) {
        const load = runLoad(round, attempts);
        const ofRound = () => attempts.filter((a) => a.round === round);
        // Kill once enough orders were acknowledged, while half the shoppers have one in flight.
        await vi.waitFor(
          () => {
            if (!api?.running()) throw new Error(`api exited:\n${api?.output()}`);
            const acknowledged = ofRound().filter((a) => a.status === 201).length;
            const pending = ofRound().filter((a) => a.status === 'pending').length;
            if (acknowledged < ACKS_BEFORE_KILL || pending < SHOPPERS / 2) {
              throw new Error(`${acknowledged} acknowledged, ${pending} in flight`);
            }
          },
          { timeout: 90_000, interval: 5 },
        );
        inFlightAtKills += ofRound().filter((a) => a.status === 'pending').length;
        await api.kill();
        await load.stop();
        expect(
          ofRound().filter((a) => typeof a.status === 'number' && a.status !== 201),
          'answers other than 201 before the kill',
        ).toEqual([]);

        api = await startApi();
        // Retry what the kill left unanswered, under the same key: one order each.
        for (const attempt of ofRound().filter((a) => a.status === 'no answer')) {
          const res = await placeOrder(attempt);
          attempt.retryStatus = res.status;
          attempt.retryReplayed = res.headers.get('idempotent-replayed') === 'true';
          if (res.status === 201) attempt.orderId = ((await res.json()) as { id: string }).id;
          else expect(await res.text(), attempt.key).toContain('OUT_OF_STOCK');
        }
        // A retry of an acknowledged order answers the same order, from the stored answer.
        for (const attempt of ofRound()
          .filter((a) => a.status === 201)
          .slice(-3)) {
          const res = await placeOrder(attempt);
          expect(res.status, attempt.key).toBe(201);
          expect(res.headers.get('idempotent-replayed'), attempt.key).toBe('true');
          expect(((await res.json()) as { id: string }).id, attempt.key).toBe(attempt.orderId);
          replaysChecked += 1;
        }
      }
      await api.stop();

      // The figures come from the database itself.
      const db = store.database.db;
      const acknowledged = attempts.filter((a) => a.status === 201 || a.retryStatus === 201);
      const acknowledgedIds = new Set(acknowledged.map((a) => a.orderId));
      const orders = await db.selectFrom('orders').select(['id', 'session_id']).execute();
      const storedIds = new Set(orders.map((order) => order.id));
      const lost = [...acknowledgedIds].filter((id) => !id || !storedIds.has(id));
      const unacknowledged = orders.filter((order) => !acknowledgedIds.has(order.id));
      const perSession = new Map<string, number>();
      for (const order of orders) {
        perSession.set(order.session_id, (perSession.get(order.session_id) ?? 0) + 1);
      }
      const duplicates = [...perSession.values()].filter((n) => n > 1).length;
      const halfWritten = await findHalfWritten(store.database, ITEMS.length);
      const stock = await Promise.all(
        ITEMS.map(async (item) => {
          const left = await getStock(db, item.productId, item.edition);
          const row = await db
            .selectFrom('order_lines')
            .select((eb) => eb.fn.sum<string | number | null>('quantity').as('n'))
            .where('product_id', '=', item.productId)
            .where('edition', '=', item.edition)
            .executeTakeFirstOrThrow();
          return { ...item, left, sold: Number(row.n ?? 0) };
        }),
      );
      const unanswered = attempts.filter((a) => a.status === 'no answer');
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.info(
        `crash safety (${label}): ${KILLS} kills survived, ${attempts.length} orders tried, ` +
          `${acknowledged.length} acknowledged, ${lost.length} lost, ` +
          `${halfWritten.total} half-written, ${duplicates} duplicates, ` +
          `${inFlightAtKills} in flight at the kills (${unanswered.length} unanswered: ` +
          `${unanswered.filter((a) => a.retryReplayed).length} had been committed and replayed, ` +
          `${unanswered.filter((a) => a.retryStatus === 201 && !a.retryReplayed).length} ` +
          `placed on retry), ` +
          `${replaysChecked} replays checked, ` +
          stock
            .map(
              (s) =>
                `stock ${s.productId}/${s.edition} ${s.start} = ${s.left} left + ${s.sold} sold`,
            )
            .join(', ') +
          `, oversold ${stock.filter((s) => s.left < 0 || s.sold > s.start).length}, ${seconds} s`,
      );

      expect(halfWritten.kinds).toEqual({});
      expect(lost).toEqual([]);
      expect(unacknowledged).toEqual([]);
      expect(duplicates).toBe(0);
      for (const s of stock) {
        expect(s.left, `${s.productId}/${s.edition}`).toBeGreaterThanOrEqual(0);
        expect(s.left + s.sold, `${s.productId}/${s.edition}`).toBe(s.start);
      }
      // Every unanswered request ended on its retry: one order, or a clear refusal.
      for (const attempt of unanswered) expect([201, 409]).toContain(attempt.retryStatus);
      expect(acknowledged.length).toBeGreaterThanOrEqual(KILLS * ACKS_BEFORE_KILL);
    },
    (KILLS + 1) * 150_000,
  );
});

/**
 * Shoppers ordering in a loop, each order from a new session: GET /session, two cart adds,
 * POST /checkout/orders with its own Idempotency-Key. A shopper stops at the first request that
 * gets no answer (the api was killed) or when told to.
 */
function runLoad(round: number, attempts: Attempt[]): { stop(): Promise<void> } {
  let stopping = false;
  const shopper = async (index: number) => {
    for (let n = 0; !stopping; n += 1) {
      let cookie: string;
      try {
        const session = await call('GET', '/session');
        const set = session.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
        if (!set) throw new Error(`GET /session set no cookie (${session.status})`);
        cookie = set.split(';')[0]!;
        for (const item of ITEMS) {
          const res = await call('POST', '/cart/items', { cookie }, item);
          if (res.status !== 200) throw new Error(`cart add answered ${res.status}`);
        }
      } catch {
        return; // the api is gone (or the stock is): this shopper's round is over
      }
      const attempt: Attempt = {
        key: `crash-${round}-${index}-${n}`,
        cookie,
        round,
        status: 'pending',
      };
      attempts.push(attempt);
      try {
        const res = await call(
          'POST',
          '/checkout/orders',
          { cookie, 'idempotency-key': attempt.key },
          ORDER_BODY,
        );
        if (res.status === 201) attempt.orderId = ((await res.json()) as { id: string }).id;
        attempt.status = res.status;
      } catch {
        attempt.status = 'no answer';
        return;
      }
    }
  };
  const running = Promise.all(Array.from({ length: SHOPPERS }, (_, i) => shopper(i)));
  return {
    async stop() {
      stopping = true;
      await running;
    },
  };
}

const ORDER_BODY = createOrderRequest();

function call(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: object,
): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

/** The attempt's order request again: same session, same key, same body. */
async function placeOrder(attempt: Attempt): Promise<Response> {
  // A connection the kill left in the client's pool may fail once; the key makes a resend safe.
  for (let tries = 1; ; tries += 1) {
    try {
      return await call(
        'POST',
        '/checkout/orders',
        { cookie: attempt.cookie, 'idempotency-key': attempt.key },
        ORDER_BODY,
      );
    } catch (err) {
      if (tries === 3) throw err;
    }
  }
}

/**
 * Rows that only a half-done order could leave: an order without its lines, lines or a payment
 * without an order, an order without exactly one payment or whose lines do not add up to its
 * subtotal, an idempotency key claimed but never completed, or completed with an order that is
 * not there.
 */
async function findHalfWritten(
  database: DatabaseHandle,
  linesPerOrder: number,
): Promise<{ total: number; kinds: Record<string, string[]> }> {
  const db = database.db;
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'subtotal_cents', 'total_cents'])
    .execute();
  const lines = await db
    .selectFrom('order_lines')
    .select(['order_id', 'line_total_cents'])
    .execute();
  const payments = await db.selectFrom('payments').select(['order_id', 'amount_cents']).execute();
  const keys = await db
    .selectFrom('idempotency_keys')
    .select(['key', 'status_code', 'response_body'])
    .execute();
  const orderIds = new Set(orders.map((order) => order.id));
  const kinds: Record<string, string[]> = {};
  const add = (kind: string, id: string) => (kinds[kind] ??= []).push(id);
  for (const order of orders) {
    const own = lines.filter((line) => line.order_id === order.id);
    if (own.length !== linesPerOrder) add(`orders with ${own.length} lines`, order.id);
    const sum = own.reduce((n, line) => n + Number(line.line_total_cents), 0);
    if (sum !== Number(order.subtotal_cents)) add('lines not adding up to the subtotal', order.id);
    const paid = payments.filter((payment) => payment.order_id === order.id);
    if (paid.length !== 1) add(`orders with ${paid.length} payments`, order.id);
    else if (Number(paid[0]!.amount_cents) !== Number(order.total_cents)) {
      add('payments of another amount', order.id);
    }
  }
  for (const line of lines) {
    if (!orderIds.has(line.order_id)) add('lines without an order', line.order_id);
  }
  for (const payment of payments) {
    if (!orderIds.has(payment.order_id)) add('payments without an order', payment.order_id);
  }
  for (const key of keys) {
    if (key.status_code === null) add('keys claimed, never completed', key.key);
    else if (key.status_code === 201) {
      const id = (JSON.parse(key.response_body ?? '{}') as { id?: string }).id;
      if (!id || !orderIds.has(id)) add('keys answering a missing order', key.key);
    }
  }
  const total = Object.values(kinds).reduce((n, ids) => n + ids.length, 0);
  return { total, kinds };
}

/** The api from its source on `port` over the store (the shared child-process helper). */
const startApi = () =>
  startApiProcess(port, { SESSION_SECRET, LOG_LEVEL: 'warn', ...store.env }, START_TIMEOUT_MS);

/**
 * The api's database, migrated and seeded here (the api then finds it seeded), with the stock
 * of ITEMS set: a SQLite file in a DATA_DIR of its own, or a PostgreSQL database of its own.
 */
async function createStore(serverUrl: string | undefined): Promise<typeof store> {
  const prepare = async (database: DatabaseHandle) => {
    await migrateToLatest(database.db);
    await seedCatalog(database.db, await readCatalogSeed());
    for (const item of ITEMS) {
      await setStock(database.db, item.productId, item.edition, item.start);
    }
  };
  if (!serverUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-crash-'));
    const database = openDatabase({ sqliteFile: path.join(dataDir, 'showroom.db') });
    await prepare(database);
    return {
      database,
      env: { DATA_DIR: dataDir, DATABASE_URL: '' },
      async destroy() {
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `showroom_crash_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-crash-'));
  await prepare(database);
  return {
    database,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async destroy() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      // Forced: the killed api's connections may not all be gone yet.
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
