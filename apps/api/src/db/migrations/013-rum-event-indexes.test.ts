import { sql, type Insertable, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toRumRows } from '../../modules/monitoring/rum-events.js';
import { createMonitoringStore } from '../../modules/monitoring/store.js';
import { createRumAction, createRumError, createRumView } from '../../test/rum-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { isPostgres } from '../dialect.js';
import { migrateTo, migrateToLatest } from '../migrate.js';
import type { Database, RumEventTable } from '../schema.js';

/**
 * Migration 013 (docs/decisions/005-monitoring-intake-and-inspector.md): rum_events keeps its
 * rows and ids, a resent event is still stored once (per session now), and the indexes are the
 * ones the intake and the monitoring queries were measured with.
 */

const T = Date.UTC(2026, 0, 1);
const BEFORE = '012-guards';

function event(id: number, session: string, key: string | null): Insertable<RumEventTable> {
  return {
    event_key: key,
    session_id: session,
    view_id: `${session}-view`,
    event_type: key?.split(':')[0] ?? 'long_task',
    date: T + id,
    name: `event ${id}`,
    usr_id: 'a1b2c3d4',
    feature_flags: '{"show_loaf":true}',
    payload: `{"n":${id}}`,
    received_at: T + id,
  };
}

async function rows(db: Kysely<Database>) {
  const stored = await db.selectFrom('rum_events').selectAll().orderBy('id').execute();
  return stored.map((row) => ({
    ...row,
    date: Number(row.date),
    received_at: Number(row.received_at),
  }));
}

async function indexes(db: Kysely<Database>): Promise<string[]> {
  const result = isPostgres(db)
    ? await sql<{ name: string }>`select indexname as name from pg_indexes
        where tablename = 'rum_events' and indexname <> 'rum_events_pkey'`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master
        where type = 'index' and tbl_name = 'rum_events'`.execute(db);
  return result.rows.map((row) => row.name).sort();
}

describe('migration 013-rum-event-indexes', () => {
  let test: TestDatabase;
  let db: Kysely<Database>;
  beforeAll(async () => {
    test = await createTestDatabase();
    db = test.database.db;
  });
  afterAll(async () => {
    await test.destroy();
  });

  it('keeps rum_events whole, then stores a resent event once per session', async () => {
    await migrateTo(db, BEFORE);
    expect(await indexes(db)).toEqual(
      isPostgres(db)
        ? [
            'rum_events_event_key_key',
            'rum_events_received_idx',
            'rum_events_session_idx',
            'rum_events_type_name_idx',
          ]
        : [
            'rum_events_received_idx',
            'rum_events_session_idx',
            'rum_events_type_name_idx',
            'sqlite_autoindex_rum_events_1',
          ],
    );
    await db
      .insertInto('rum_events')
      .values([
        event(1, 's-1', 'action:a-1'),
        event(2, 's-1', 'error:e-1'),
        event(3, 's-2', null),
        event(4, 's-2', null),
      ])
      .execute();
    const before = await rows(db);

    await migrateToLatest(db);
    expect(await rows(db)).toEqual(before);
    expect(await indexes(db)).toEqual([
      'rum_events_action_name_idx',
      'rum_events_received_idx',
      'rum_events_session_key_idx',
    ]);

    // The same batch twice, and one of its events' ids in another session.
    const store = createMonitoringStore(db);
    const batch = (session: string) => [
      createRumView({ sessionId: session }),
      createRumAction('add to cart', { sessionId: session, id: 'a-9' }),
      createRumError('Could not add to cart', { sessionId: session, id: 'e-9' }),
    ];
    const none = { track: 'rum', events: [] };
    await store.storeRumBatch(toRumRows(batch('s-3'), T), none, T);
    await store.storeRumBatch(toRumRows(batch('s-3'), T), none, T);
    await store.storeRumBatch(toRumRows(batch('s-4').slice(1, 2), T), none, T);
    const after = await rows(db);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((row) => [row.session_id, row.event_key])).toEqual([
      ['s-3', 'action:a-9'],
      ['s-3', 'error:e-9'],
      ['s-4', 'action:a-9'],
    ]);
    // New ids follow the copied ones.
    expect(after[before.length]!.id).toBeGreaterThan(before.at(-1)!.id);
  });

  it('goes back to one event per event_key, keeping the first of each', async () => {
    const latest = await rows(db);
    await migrateTo(db, BEFORE);
    const back = await rows(db);
    expect(back).toEqual(latest.filter((row) => row.session_id !== 's-4'));
    await expect(
      db
        .insertInto('rum_events')
        .values(event(9, 's-5', 'action:a-1'))
        .execute(),
    ).rejects.toThrow(/unique/i);
    await migrateToLatest(db);
    expect(await rows(db)).toEqual(back);
  });
});
