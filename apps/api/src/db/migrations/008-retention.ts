import type { Kysely } from 'kysely';

/**
 * Indexes for the retention job (apps/api/src/modules/retention, README "Configuration"): every
 * purge picks its oldest rows by the time column it ages them on, so each batch is an index range
 * scan instead of a scan of the whole table, however large the table has grown.
 */
export const RETENTION_INDEXES: [name: string, table: string, columns: string[]][] = [
  ['sessions_kind_updated_idx', 'sessions', ['kind', 'updated_at']],
  ['idempotency_keys_created_idx', 'idempotency_keys', ['created_at']],
  ['outbox_messages_created_idx', 'outbox_messages', ['created_at']],
  // Deleting a session checks that no payment names it (orders have orders_session_created_idx).
  ['payments_session_idx', 'payments', ['session_id']],
  ['rum_sessions_received_idx', 'rum_sessions', ['received_at']],
  ['rum_views_received_idx', 'rum_views', ['received_at']],
  ['rum_events_received_idx', 'rum_events', ['received_at']],
  ['intake_events_received_idx', 'intake_events', ['received_at']],
  ['flag_exposures_received_idx', 'flag_exposures', ['received_at']],
  ['flag_evaluations_received_idx', 'flag_evaluations', ['received_at']],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of RETENTION_INDEXES) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of RETENTION_INDEXES) await db.schema.dropIndex(name).execute();
}
