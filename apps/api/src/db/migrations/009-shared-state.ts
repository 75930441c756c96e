import type { Kysely } from 'kysely';

/**
 * State every replica must agree on that had lived in process memory (docs/architecture.md
 * "Scaling"): the rate-limit counters of sign-up, sign-in and code requests, and the traffic
 * generator's control (README "Traffic generator"), so any number of generators read one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    // The route and the client: `POST/session/sign-in-127.0.0.1`.
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('window_start', 'bigint', (col) => col.notNull())
    .addColumn('hits', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('rate_limits_window_idx')
    .on('rate_limits')
    .columns(['window_start'])
    .execute();

  await db.schema
    .createTable('traffic_control')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // JSON: the profile fields laid over every running generator's profile.
    .addColumn('control', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_by', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('traffic_control').execute();
  await db.schema.dropTable('rate_limits').execute();
}
