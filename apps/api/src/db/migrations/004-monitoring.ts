import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Browser monitoring as the intake decodes it (docs/architecture.md "Monitoring"): one row per RUM
 * session and per view (the highest `_dd.document_version` of each view wins), every other RUM
 * event once, and the flag variants each session saw. Dates are epoch ms and durations
 * nanoseconds, both `bigint` (PostgreSQL `integer` is 32-bit).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rum_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('application_id', 'text')
    .addColumn('first_seen', 'bigint', (col) => col.notNull())
    .addColumn('last_seen', 'bigint', (col) => col.notNull())
    .addColumn('usr_id', 'text')
    .addColumn('usr_name', 'text')
    .addColumn('usr_email', 'text')
    .addColumn('usr_team', 'text')
    .addColumn('service', 'text')
    .addColumn('version', 'text')
    .addColumn('has_replay', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('received_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('rum_sessions_last_seen_idx')
    .on('rum_sessions')
    .column('last_seen')
    .execute();

  await db.schema
    .createTable('rum_views')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('session_id', 'text', (col) => col.notNull())
    .addColumn('document_version', 'integer', (col) => col.notNull())
    .addColumn('date', 'bigint', (col) => col.notNull())
    .addColumn('url', 'text')
    .addColumn('name', 'text')
    .addColumn('loading_time', 'bigint')
    .addColumn('first_contentful_paint', 'bigint')
    .addColumn('largest_contentful_paint', 'bigint')
    .addColumn('interaction_to_next_paint', 'bigint')
    .addColumn('cumulative_layout_shift', 'double precision')
    .addColumn('time_spent', 'bigint')
    .addColumn('action_count', 'integer', (col) => col.notNull())
    .addColumn('error_count', 'integer', (col) => col.notNull())
    .addColumn('usr_id', 'text')
    .addColumn('feature_flags', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('received_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('rum_views_session_idx')
    .on('rum_views')
    .columns(['session_id', 'date'])
    .execute();

  await createRumEventsTable(db, 'rum_events', { uniqueEventKey: true });
  await db.schema
    .createIndex('rum_events_session_idx')
    .on('rum_events')
    .columns(['session_id', 'date'])
    .execute();
  await db.schema
    .createIndex('rum_events_type_name_idx')
    .on('rum_events')
    .columns(['event_type', 'name'])
    .execute();

  await db.schema
    .createTable('rum_session_flags')
    .addColumn('session_id', 'text', (col) => col.notNull())
    .addColumn('flag_key', 'text', (col) => col.notNull())
    .addColumn('variant', 'text', (col) => col.notNull())
    .addColumn('first_seen', 'bigint', (col) => col.notNull())
    .addColumn('last_seen', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('rum_session_flags_pk', ['session_id', 'flag_key', 'variant'])
    .execute();
  await db.schema
    .createIndex('rum_session_flags_flag_idx')
    .on('rum_session_flags')
    .columns(['flag_key', 'variant'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['rum_session_flags', 'rum_events', 'rum_views', 'rum_sessions']) {
    await db.schema.dropTable(table).execute();
  }
}

/**
 * The rum_events table as this migration made it. `<type>:<event id>` in `event_key`: a batch
 * the SDK sends again (retry after a timeout) stores nothing twice; migration 013 moved that
 * uniqueness to (session_id, event_key) and rebuilds the table through this on SQLite.
 */
export async function createRumEventsTable(
  db: Kysely<unknown>,
  name: string,
  { uniqueEventKey }: { uniqueEventKey: boolean },
): Promise<void> {
  await idColumn(db)(db.schema.createTable(name))
    .addColumn('event_key', 'text', (col) => (uniqueEventKey ? col.unique() : col))
    .addColumn('session_id', 'text')
    .addColumn('view_id', 'text')
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('date', 'bigint', (col) => col.notNull())
    .addColumn('name', 'text')
    .addColumn('usr_id', 'text')
    .addColumn('feature_flags', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('received_at', 'bigint', (col) => col.notNull())
    .execute();
}

/** An auto-assigned integer key: `serial` on PostgreSQL, the rowid alias on SQLite. */
function idColumn(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return <T extends string>(table: CreateTableBuilder<T>) =>
    postgres
      ? table.addColumn('id', 'serial', (col) => col.primaryKey())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}
