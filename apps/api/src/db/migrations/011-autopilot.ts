import type { Kysely } from 'kysely';

/**
 * The autopilot's state (docs/decisions/018-autopilot.md): one row every replica reads, so they
 * agree on the schedule and a restarted api continues it. The schedule itself is not stored:
 * it is planned again from `profile` and `seed`. A replica applies step `next_step` only after
 * moving `next_step` on with a conditional UPDATE (and taking the lease), so one replica acts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('autopilot')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // idle, running, paused, finished.
    .addColumn('status', 'text', (col) => col.notNull())
    // Counts starts: a replica's claim names the run it read, never a later one's step.
    .addColumn('run', 'integer', (col) => col.notNull())
    .addColumn('profile_name', 'text')
    // JSON: the profile as it was at the start (a later release may change the shipped one).
    .addColumn('profile', 'text')
    .addColumn('seed', 'bigint')
    .addColumn('started_at', 'bigint')
    .addColumn('started_by', 'text')
    .addColumn('paused_at', 'bigint')
    .addColumn('paused_ms', 'bigint', (col) => col.notNull())
    .addColumn('next_step', 'integer', (col) => col.notNull())
    // The replica applying a step and until when its claim holds (a crashed one's runs out).
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('autopilot').execute();
}
