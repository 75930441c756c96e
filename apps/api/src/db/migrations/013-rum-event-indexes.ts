import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { createRumEventsTable } from './004-monitoring.js';
import { RETENTION_INDEXES } from './008-retention.js';

/**
 * Fewer indexes on rum_events, the table every RUM event goes into (docs/architecture.md
 * "Monitoring"; decision 005): each index is one more B-tree insert per event.
 * - The retry guard is unique per session: (session_id, event_key) instead of event_key alone.
 *   A batch sent again comes from the same session, so it still stores nothing twice, and the
 *   session's queries (the inspector's timeline, the scenario signals, the guard metrics) read
 *   this index's session prefix, which replaces (session_id, date).
 * - (event_type, name) becomes (name) over actions only: the live place-order count is its one
 *   reader; every other query by type also names the sessions.
 * SQLite cannot drop a column's UNIQUE constraint, so there the table is rebuilt (rows and ids
 * kept) in one transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, { uniqueEventKey: false }, async (trx) => {
    if (isPostgres(trx)) {
      await sql`alter table rum_events drop constraint rum_events_event_key_key`.execute(trx);
      await trx.schema.dropIndex('rum_events_session_idx').execute();
      await trx.schema.dropIndex('rum_events_type_name_idx').execute();
    }
    await trx.schema
      .createIndex('rum_events_session_key_idx')
      .unique()
      .on('rum_events')
      .columns(['session_id', 'event_key'])
      .execute();
    await trx.schema
      .createIndex('rum_events_action_name_idx')
      .on('rum_events')
      .column('name')
      .where(sql.ref('event_type'), '=', 'action')
      .execute();
  });
}

/** Back to one event per event_key: of events of several sessions that share one, the first stays. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from rum_events where event_key is not null and id not in (
      select min(id) from rum_events where event_key is not null group by event_key
    )`.execute(db);
  await rebuild(db, { uniqueEventKey: true }, async (trx) => {
    if (isPostgres(trx)) {
      await trx.schema.dropIndex('rum_events_session_key_idx').execute();
      await trx.schema.dropIndex('rum_events_action_name_idx').execute();
      await sql`alter table rum_events add constraint rum_events_event_key_key unique (event_key)`.execute(
        trx,
      );
    }
    await trx.schema
      .createIndex('rum_events_session_idx')
      .on('rum_events')
      .columns(['session_id', 'date'])
      .execute();
    await trx.schema
      .createIndex('rum_events_type_name_idx')
      .on('rum_events')
      .columns(['event_type', 'name'])
      .execute();
  });
}

/**
 * Runs `indexes` in one transaction (PostgreSQL runs every migration in one already); on SQLite
 * first copies rum_events into a new table of the given shape (made by the function that made
 * the table, so its columns come in the same order), which drops its old indexes, and recreates
 * the retention index (migration 008).
 */
async function rebuild(
  db: Kysely<unknown>,
  shape: { uniqueEventKey: boolean },
  indexes: (trx: Kysely<unknown>) => Promise<void>,
): Promise<void> {
  if (isPostgres(db)) {
    await indexes(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await createRumEventsTable(trx, 'rum_events_next', shape);
    await sql`insert into rum_events_next select * from rum_events`.execute(trx);
    await trx.schema.dropTable('rum_events').execute();
    await sql`alter table rum_events_next rename to rum_events`.execute(trx);
    for (const [name, table, columns] of RETENTION_INDEXES) {
      if (table === 'rum_events')
        await trx.schema.createIndex(name).on(table).columns(columns).execute();
    }
    await indexes(trx);
  });
}
