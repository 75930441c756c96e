import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The scenario catalogue's state (docs/decisions/011-scenario-catalogue.md): runs of scenarios
 * that changed flags (active until stopped, with what to restore), change markers (a scenario
 * started or stopped, a new build; flag changes are the flag audit's rows), and the scenario a
 * monitored session was opened by.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const withId = <T extends string>(table: CreateTableBuilder<T>) =>
    isPostgres(db)
      ? table.addColumn('id', 'serial', (col) => col.primaryKey())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());

  await withId(db.schema.createTable('scenario_runs'))
    .addColumn('scenario_id', 'text', (col) => col.notNull())
    .addColumn('started_at', 'bigint', (col) => col.notNull())
    .addColumn('started_by', 'text', (col) => col.notNull())
    .addColumn('stopped_at', 'bigint')
    .addColumn('stopped_by', 'text')
    // JSON: each changed flag's state before the run, restored when it stops.
    .addColumn('restore', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('scenario_runs_scenario_idx')
    .on('scenario_runs')
    .columns(['scenario_id', 'stopped_at'])
    .execute();

  await withId(db.schema.createTable('change_markers'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('at', 'bigint', (col) => col.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    // JSON array of the flag keys the change touched (a scenario's flag changes).
    .addColumn('flag_keys', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('change_markers_at_idx').on('change_markers').column('at').execute();

  await db.schema.alterTable('rum_sessions').addColumn('scenario', 'text').execute();
  await db.schema
    .createIndex('rum_sessions_scenario_idx')
    .on('rum_sessions')
    .columns(['scenario', 'last_seen'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('rum_sessions_scenario_idx').execute();
  await db.schema.alterTable('rum_sessions').dropColumn('scenario').execute();
  await db.schema.dropTable('change_markers').execute();
  await db.schema.dropTable('scenario_runs').execute();
}
