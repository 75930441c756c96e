import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Flag service and telemetry intake: the served flag configuration, its operator audit trail,
 * and what the browser SDKs send back (exposures, flag evaluations, other intake tracks).
 * Epoch-millisecond columns are `bigint` on both dialects (PostgreSQL `integer` is 32-bit).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const withId = idColumn(db);

  await db.schema
    .createTable('flag_configurations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('environment', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('flags')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('definition', 'text', (col) => col.notNull())
    .addColumn('source_hash', 'text', (col) => col.notNull())
    .addColumn('revision', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await withId(db.schema.createTable('flag_audit'))
    .addColumn('flag_key', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('at', 'bigint', (col) => col.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('configuration_created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('flag_audit_flag_idx')
    .on('flag_audit')
    .columns(['flag_key', 'id'])
    .execute();

  await withId(db.schema.createTable('flag_exposures'))
    .addColumn('flag_key', 'text', (col) => col.notNull())
    .addColumn('allocation_key', 'text', (col) => col.notNull())
    .addColumn('variant_key', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text', (col) => col.notNull())
    .addColumn('subject_attributes', 'text', (col) => col.notNull())
    .addColumn('timestamp', 'bigint', (col) => col.notNull())
    .addColumn('service', 'text')
    .addColumn('received_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('flag_exposures_flag_idx')
    .on('flag_exposures')
    .columns(['flag_key', 'variant_key'])
    .execute();

  await withId(db.schema.createTable('flag_evaluations'))
    .addColumn('flag_key', 'text', (col) => col.notNull())
    .addColumn('variant_key', 'text')
    .addColumn('allocation_key', 'text')
    .addColumn('targeting_rule_key', 'text')
    .addColumn('targeting_key', 'text')
    .addColumn('evaluation_count', 'integer', (col) => col.notNull())
    .addColumn('first_evaluation', 'bigint', (col) => col.notNull())
    .addColumn('last_evaluation', 'bigint', (col) => col.notNull())
    .addColumn('runtime_default_used', 'integer', (col) => col.notNull())
    .addColumn('error_message', 'text')
    .addColumn('context', 'text')
    .addColumn('timestamp', 'bigint', (col) => col.notNull())
    .addColumn('received_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('flag_evaluations_flag_idx')
    .on('flag_evaluations')
    .column('flag_key')
    .execute();

  await withId(db.schema.createTable('intake_events'))
    .addColumn('track', 'text', (col) => col.notNull())
    .addColumn('event_type', 'text')
    .addColumn('session_id', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('received_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('intake_events_session_idx')
    .on('intake_events')
    .columns(['session_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'intake_events',
    'flag_evaluations',
    'flag_exposures',
    'flag_audit',
    'flags',
    'flag_configurations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

/** An auto-assigned integer key: `serial` on PostgreSQL, the rowid alias on SQLite. */
function idColumn(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return <T extends string>(table: CreateTableBuilder<T>) =>
    postgres
      ? table.addColumn('id', 'serial', (col) => col.primaryKey())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}
