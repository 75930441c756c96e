import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether `db` (or a transaction) speaks PostgreSQL; otherwise it is SQLite. */
export function isPostgres<T>(db: Kysely<T>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
