import type { Kysely } from 'kysely';

/**
 * Guarded rollouts (docs/decisions/019-guarded-rollouts.md): one guard per flag, with its
 * definition and the state the checker moves it through. `version` is bumped by every change;
 * a replica applies a decision only with `WHERE version = <the version it read>`, so of several
 * replicas checking the same guard exactly one acts (docs/architecture.md "Scaling").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('flag_guards')
    .addColumn('flag_key', 'text', (col) => col.primaryKey())
    // JSON: the GuardDefinition (packages/contracts/src/guards.ts).
    .addColumn('definition', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('step_index', 'integer', (col) => col.notNull())
    .addColumn('step_started_at', 'bigint', (col) => col.notNull())
    .addColumn('percentage', 'double precision')
    // JSON: the last GuardCheck, or null before the first check.
    .addColumn('last_check', 'text')
    .addColumn('last_check_at', 'bigint')
    .addColumn('tripped_at', 'bigint')
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('flag_guards').execute();
}
