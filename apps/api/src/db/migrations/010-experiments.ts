import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Tracking events (docs/architecture.md "Feature flags", contracts/experiments.ts): what the shop
 * reports through OpenFeature `track()`, kept with the subject's targeting key so experiment
 * results can join them to exposures (docs/decisions/017-experiment-statistics.md). Epoch-ms
 * columns are `bigint` on both dialects, as in migration 002.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('tracking_events')
    .addColumn('id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('targeting_key', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('value_cents', 'bigint')
    .addColumn('currency', 'text')
    // JSON object of flat details, or null.
    .addColumn('details', 'text')
    .addColumn('timestamp', 'bigint', (col) => col.notNull())
    .addColumn('received_at', 'bigint', (col) => col.notNull())
    .execute();
  // Results join each exposed subject's purchases after its first exposure.
  await db.schema
    .createIndex('tracking_events_name_key_time_idx')
    .on('tracking_events')
    .columns(['name', 'targeting_key', 'timestamp'])
    .execute();
  // The retention purge ages rows on received_at (migration 008's pattern).
  await db.schema
    .createIndex('tracking_events_received_idx')
    .on('tracking_events')
    .columns(['received_at'])
    .execute();
  // Results rank each subject's exposures to one flag to find its first.
  await db.schema
    .createIndex('flag_exposures_flag_subject_time_idx')
    .on('flag_exposures')
    .columns(['flag_key', 'subject_id', 'timestamp'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('flag_exposures_flag_subject_time_idx').execute();
  await db.schema.dropTable('tracking_events').execute();
}
