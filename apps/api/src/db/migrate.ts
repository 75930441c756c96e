import {
  Migrator,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely';
import * as catalog from './migrations/001-catalog.js';
import * as flags from './migrations/002-flags.js';
import * as shop from './migrations/003-shop.js';
import * as monitoring from './migrations/004-monitoring.js';
import * as accounts from './migrations/005-accounts.js';
import * as search from './migrations/006-search.js';
import * as scenarios from './migrations/007-scenarios.js';
import * as retention from './migrations/008-retention.js';
import * as sharedState from './migrations/009-shared-state.js';
import * as experiments from './migrations/010-experiments.js';
import * as autopilot from './migrations/011-autopilot.js';
import * as guards from './migrations/012-guards.js';
import * as rumEventIndexes from './migrations/013-rum-event-indexes.js';

/** Migrations are listed in code, so the compiled build and the tests run the same set. */
const migrations: Record<string, Migration> = {
  '001-catalog': catalog,
  '002-flags': flags,
  '003-shop': shop,
  '004-monitoring': monitoring,
  '005-accounts': accounts,
  '006-search': search,
  '007-scenarios': scenarios,
  '008-retention': retention,
  '009-shared-state': sharedState,
  '010-experiments': experiments,
  '011-autopilot': autopilot,
  '012-guards': guards,
  '013-rum-event-indexes': rumEventIndexes,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

/** Brings the schema up to date; Kysely's lock makes concurrent replicas safe. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateToLatest());
}

/** Brings the schema to `name`, up or down (a migration's tests start from the one before it). */
export async function migrateTo<T>(db: Kysely<T>, name: string): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate<T>(
  db: Kysely<T>,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  const migrator = new Migrator({ db: db as Kysely<unknown>, provider });
  const { error, results } = await run(migrator);
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${String(error)}`, { cause: error });
  }
}
