import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import {
  createRumAction,
  createRumError,
  createRumView,
  ndjson,
  SAMPLE_SHOPPER,
} from '../../test/rum-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { toRumRows } from './rum-events.js';
import { createMonitoringStore } from './store.js';

const RECEIVED_AT = Date.UTC(2026, 0, 15, 12);
const RUM = '/api/v2/rum?ddsource=browser&dd-api-key=pub&batch_time=1&_dd.api=fetch';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database, flags: { now: () => RECEIVED_AT } });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

/** POST as browser-core's proxy transport does; `contentType: null` sends none (a Uint8Array body). */
const send = (forward: string, body: string | Buffer, contentType: string | null = 'text/plain') =>
  app.inject({
    method: 'POST',
    url: `/intake?ddforward=${encodeURIComponent(forward)}`,
    headers: contentType === null ? {} : { 'content-type': contentType },
    payload: body,
  });

const db = () => testDb.database.db;

async function tableCounts() {
  const count = async (
    table: 'rum_sessions' | 'rum_views' | 'rum_events' | 'rum_session_flags' | 'intake_events',
  ) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    sessions: await count('rum_sessions'),
    views: await count('rum_views'),
    events: await count('rum_events'),
    flags: await count('rum_session_flags'),
    generic: await count('intake_events'),
  };
}

describe('POST /intake — the rum track', () => {
  it('stores a plain NDJSON batch: the session, its view, action and error, with shopper and flags', async () => {
    const flags = { instant_pay: 'b', show_payments: true };
    const res = await send(
      RUM,
      ndjson([
        createRumView({ sessionId: 's-plain', viewId: 'v-plain', flags }),
        createRumAction('add to cart', {
          sessionId: 's-plain',
          viewId: 'v-plain',
          context: { amount_cents: 12_900, currency: 'EUR' },
          flags,
        }),
        createRumError('Out of stock', { sessionId: 's-plain', viewId: 'v-plain' }),
      ]),
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ track: 'rum', accepted: 3 });

    const session = await db()
      .selectFrom('rum_sessions')
      .selectAll()
      .where('id', '=', 's-plain')
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      usr_id: SAMPLE_SHOPPER.id,
      usr_name: SAMPLE_SHOPPER.name,
      usr_team: SAMPLE_SHOPPER.team,
      service: 'showroom-web',
      has_replay: 0,
    });
    const view = await db()
      .selectFrom('rum_views')
      .selectAll()
      .where('id', '=', 'v-plain')
      .executeTakeFirstOrThrow();
    expect(Number(view.largest_contentful_paint)).toBe(820_000_000);
    expect(JSON.parse(view.feature_flags ?? '{}')).toEqual(flags);
    const events = await db()
      .selectFrom('rum_events')
      .select(['event_type', 'name', 'usr_id', 'feature_flags'])
      .where('session_id', '=', 's-plain')
      .orderBy('date')
      .execute();
    expect(events).toEqual([
      {
        event_type: 'action',
        name: 'add to cart',
        usr_id: SAMPLE_SHOPPER.id,
        feature_flags: JSON.stringify(flags),
      },
      { event_type: 'error', name: 'Out of stock', usr_id: SAMPLE_SHOPPER.id, feature_flags: null },
    ]);
    const variants = await db()
      .selectFrom('rum_session_flags')
      .select(['flag_key', 'variant'])
      .where('session_id', '=', 's-plain')
      .orderBy('flag_key')
      .execute();
    expect(variants).toEqual([
      { flag_key: 'instant_pay', variant: 'b' },
      { flag_key: 'show_payments', variant: 'true' },
    ]);
  });

  it('inflates a deflated batch, also when it comes without a content-type (Uint8Array body)', async () => {
    const body = zlib.deflateSync(ndjson([createRumView({ sessionId: 's-zip', viewId: 'v-zip' })]));
    const res = await send(`${RUM}&dd-evp-encoding=deflate`, body, null);
    expect(res.statusCode).toBe(202);
    const view = await db()
      .selectFrom('rum_views')
      .select('session_id')
      .where('id', '=', 'v-zip')
      .executeTakeFirst();
    expect(view).toEqual({ session_id: 's-zip' });
  });

  it('keeps the highest _dd.document_version of a view, whatever order the versions arrive in', async () => {
    const version = (n: number, actions: number, lcpNs?: number) =>
      createRumView({ sessionId: 's-dedup', viewId: 'v-dedup', version: n, actions, lcpNs });
    // One batch holding two versions, then an older one, then a newer one.
    expect((await send(RUM, ndjson([version(2, 1), version(3, 2, 900_000_000)]))).statusCode).toBe(
      202,
    );
    expect((await send(RUM, ndjson([version(1, 0)]))).statusCode).toBe(202);
    let view = await db()
      .selectFrom('rum_views')
      .selectAll()
      .where('id', '=', 'v-dedup')
      .executeTakeFirstOrThrow();
    expect(view.document_version).toBe(3);
    expect(view.action_count).toBe(2);
    expect(Number(view.largest_contentful_paint)).toBe(900_000_000);

    expect((await send(RUM, ndjson([version(5, 4)]))).statusCode).toBe(202);
    view = await db()
      .selectFrom('rum_views')
      .selectAll()
      .where('id', '=', 'v-dedup')
      .executeTakeFirstOrThrow();
    expect(view).toMatchObject({ document_version: 5, action_count: 4 });
    const views = await db()
      .selectFrom('rum_views')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('session_id', '=', 's-dedup')
      .executeTakeFirstOrThrow();
    expect(Number(views.n)).toBe(1);
  });

  it('keeps the shopper when a later view version comes without usr (and an early one lacked it)', async () => {
    const early = createRumView({ sessionId: 's-usr', viewId: 'v-usr', version: 1, usr: null });
    const later = createRumView({ sessionId: 's-usr', viewId: 'v-usr', version: 2 });
    const last = createRumView({ sessionId: 's-usr', viewId: 'v-usr', version: 3, usr: null });
    for (const event of [early, later, last]) {
      expect((await send(RUM, ndjson([event]))).statusCode).toBe(202);
    }
    const session = await db()
      .selectFrom('rum_sessions')
      .select('usr_id')
      .where('id', '=', 's-usr')
      .executeTakeFirstOrThrow();
    expect(session.usr_id).toBe(SAMPLE_SHOPPER.id);
  });

  it('stores an event sent twice (a retried batch) once', async () => {
    const action = createRumAction('place order', { sessionId: 's-retry', id: 'a-retry' });
    expect((await send(RUM, ndjson([action]))).statusCode).toBe(202);
    expect((await send(RUM, ndjson([action, action]))).statusCode).toBe(202);
    const rows = await db()
      .selectFrom('rum_events')
      .select('id')
      .where('session_id', '=', 's-retry')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('stores one event id of two sessions in one batch for each session', async () => {
    const actions = ['s-one-id-1', 's-one-id-2'].map((sessionId) =>
      createRumAction('place order', { sessionId, id: 'a-one-id' }),
    );
    expect((await send(RUM, ndjson(actions))).statusCode).toBe(202);
    const rows = await db()
      .selectFrom('rum_events')
      .select('session_id')
      .where('event_key', '=', 'action:a-one-id')
      .orderBy('session_id')
      .execute();
    expect(rows.map((row) => row.session_id)).toEqual(['s-one-id-1', 's-one-id-2']);
  });
});

describe('POST /intake — malformed rum batches are refused whole', () => {
  it.each([
    [
      'a view without document version',
      [createRumView({ sessionId: 's-bad1' }), { ...createRumView(), _dd: {} }],
      'body.line.2._dd.document_version',
    ],
    [
      'an action without session',
      [createRumView({ sessionId: 's-bad2' }), { ...createRumAction('x'), session: undefined }],
      'body.line.2.session',
    ],
    [
      'an error with a text date',
      [{ ...createRumError('e'), date: 'yesterday' }],
      'body.line.1.date',
    ],
    [
      'a view id that is not text',
      [{ ...createRumView(), view: { id: 42 } }],
      'body.line.1.view.id',
    ],
  ])('answers 400 for %s and keeps the store as it was', async (_case, events, field) => {
    const before = await tableCounts();
    const res = await send(RUM, ndjson(events));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(await tableCounts()).toEqual(before);
  });

  it('refuses garbage flagged as deflate, and a truncated JSON line, without storing anything', async () => {
    const before = await tableCounts();
    const garbage = await send(`${RUM}&dd-evp-encoding=deflate`, Buffer.from([1, 2, 3, 4]), null);
    expect(garbage.statusCode).toBe(400);
    const truncated = await send(RUM, `${JSON.stringify(createRumView())}\n{"type":"view","da`);
    expect(truncated.statusCode).toBe(400);
    expect(await tableCounts()).toEqual(before);
    // The api still answers and stores the next good batch.
    const good = await send(
      RUM,
      ndjson([createRumView({ sessionId: 's-after', viewId: 'v-after' })]),
    );
    expect(good.statusCode).toBe(202);
  });
});

describe('RUM batches written together (group commit)', () => {
  const batch = (sessionId: string, names: string[]) =>
    toRumRows(
      [
        createRumView({ sessionId, viewId: `${sessionId}-view` }),
        ...names.map((name) => createRumAction(name, { sessionId, viewId: `${sessionId}-view` })),
      ],
      RECEIVED_AT,
    );
  const eventsOf = async (sessionId: string) =>
    (
      await db()
        .selectFrom('rum_events')
        .select('name')
        .where('session_id', '=', sessionId)
        .orderBy('name')
        .execute()
    ).map((row) => row.name);

  /** The database as the store sees it, counting the transactions it opens. */
  const counted = () => {
    const transactions = { count: 0 };
    const target = db();
    const proxy = new Proxy(target, {
      get(object, property) {
        if (property === 'transaction') {
          return () => {
            transactions.count += 1;
            return object.transaction();
          };
        }
        const value: unknown = Reflect.get(object, property, object);
        return typeof value === 'function' ? value.bind(object) : value;
      },
    });
    return { transactions, db: proxy };
  };

  it('stores every batch asked for in one turn in one transaction, the same session twice included', async () => {
    const { transactions, db: database } = counted();
    const store = createMonitoringStore(database);
    const none = { track: 'rum', events: [] };
    await Promise.all([
      store.storeRumBatch(batch('g-1', ['a', 'b']), none, RECEIVED_AT),
      store.storeRumBatch(batch('g-2', ['c']), none, RECEIVED_AT),
      store.storeRumBatch(batch('g-1', ['d']), none, RECEIVED_AT),
    ]);
    expect(transactions.count).toBe(1);
    expect(await eventsOf('g-1')).toEqual(['a', 'b', 'd']);
    expect(await eventsOf('g-2')).toEqual(['c']);
    const views = await db()
      .selectFrom('rum_views')
      .select('id')
      .where('id', 'like', 'g-%')
      .execute();
    expect(views.map((view) => view.id).sort()).toEqual(['g-1-view', 'g-2-view']);
  });

  it('fails only the batch the database refuses; the others of its group are stored', async () => {
    const store = createMonitoringStore(db());
    const none = { track: 'rum', events: [] };
    const refused = batch('g-bad', ['x']);
    // A row the table refuses (event_type is NOT NULL), as a database error would come.
    refused.events[0] = { ...refused.events[0]!, event_type: null as unknown as string };
    const results = await Promise.allSettled([
      store.storeRumBatch(batch('g-3', ['e']), none, RECEIVED_AT),
      store.storeRumBatch(refused, none, RECEIVED_AT),
      store.storeRumBatch(batch('g-4', ['f']), none, RECEIVED_AT),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await eventsOf('g-3')).toEqual(['e']);
    expect(await eventsOf('g-4')).toEqual(['f']);
    expect(await eventsOf('g-bad')).toEqual([]);
    const sessions = await db()
      .selectFrom('rum_sessions')
      .select('id')
      .where('id', '=', 'g-bad')
      .execute();
    expect(sessions).toEqual([]);
  });

  it('stores a batch sent twice in one group once', async () => {
    const store = createMonitoringStore(db());
    const none = { track: 'rum', events: [] };
    await Promise.all([
      store.storeRumBatch(batch('g-5', ['h', 'i']), none, RECEIVED_AT),
      store.storeRumBatch(batch('g-5', ['h', 'i']), none, RECEIVED_AT),
    ]);
    expect(await eventsOf('g-5')).toEqual(['h', 'i']);
  });
});
