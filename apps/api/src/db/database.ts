import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
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
  const checkpointer = startCheckpointer(sqlite, file);
  const db = new Kysely<Database>({ dialect: createSqliteDialect(sqlite) });
  return {
    db,
    kind: 'sqlite',
    location: file,
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

/** How often the checkpointer copies the write-ahead log into the database file. */
const CHECKPOINT_INTERVAL_MS = 250;

/**
 * Runs SQLite's WAL checkpoints on a worker thread with its own connection, instead of inside
 * whichever commit crosses the 1000-page mark: that commit paid for copying and syncing the
 * whole log (milliseconds), which the intake's batches hit every few dozen commits
 * (docs/architecture.md "Monitoring"). PASSIVE checkpoints never block the api's writes; the log
 * restarts from its beginning once a checkpoint has caught up. If the worker cannot run, the
 * connection checkpoints by itself again.
 */
function startCheckpointer(sqlite: BetterSqlite3.Database, file: string) {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let worker: Worker;
  try {
    worker = new Worker(CHECKPOINTER_SOURCE, {
      eval: true,
      workerData: { driver, file, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
  } catch {
    return { stop: () => Promise.resolve() };
  }
  sqlite.pragma('wal_autocheckpoint = 0');
  worker.unref();
  let stopped = false;
  const fallBack = () => {
    if (!stopped && sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  return {
    stop: async () => {
      stopped = true;
      await worker.terminate();
      // One last checkpoint, so the file is complete without its log.
      if (sqlite.open) sqlite.pragma('wal_checkpoint(PASSIVE)');
    },
  };
}

/** The checkpointer worker (CommonJS, run with `eval`): a PASSIVE checkpoint every interval. */
const CHECKPOINTER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
`;

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
