import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { createSqliteDialect } from './sqlite-dialect.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Where the data lives, for logs: a file path or a redacted connection string. */
  location: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, SQLite at sqliteFile. */
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
}

/** Opens the shop's database: PostgreSQL when a URL is given, else an embedded SQLite file (WAL). */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      location: redactUrl(options.databaseUrl),
      close: () => db.destroy(),
    };
  }
  const file = options.sqliteFile;
  if (!file) throw new Error('openDatabase needs a databaseUrl or a sqliteFile');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Statement journals (a multi-row insert inside a transaction, such as an intake batch's
  // events) stay in memory instead of a temporary file created and unlinked per statement.
  sqlite.pragma('temp_store = MEMORY');
  const db = new Kysely<Database>({ dialect: createSqliteDialect(sqlite) });
  return { db, kind: 'sqlite', location: file, close: () => db.destroy() };
}

/** A cheap round trip that proves the database answers. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}
