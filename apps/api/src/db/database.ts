import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { registerDataGenerations, sqliteDataGenerations } from './data-generation.js';
import { createSqliteDialect } from './sqlite-dialect.js';
import { Sqlite } from './sqlite-driver.js';
import {
  CHECKPOINTER_SAFETY_PAGES,
  OWN_CHECKPOINT_PAGES,
  startWalCheckpointer,
  type WalCheckpointer,
  type WalCheckpointerOptions,
} from './wal-checkpointer.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Where the data lives, for logs: a file path or a redacted connection string. */
  location: string;
  /** SQLite with `walCheckpointer`: the process that checkpoints the file. */
  checkpointer?: WalCheckpointer;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, SQLite at sqliteFile. */
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** PostgreSQL: how long a new connection may take before the request fails (503). */
  connectTimeoutMs?: number;
  /**
   * A PostgreSQL connection failed (the server restarted, a proxy closed it), idle in the pool
   * or checked out. The pool drops that connection and opens a new one on the next query;
   * without a listener pg's 'error' event would end the process. Default: a line on stderr.
   */
  onConnectionError?: (err: Error) => void;
  /**
   * SQLite: checkpoint the WAL from a process of its own (db/wal-checkpointer.ts), as the
   * server does; tests leave it off unless they test it.
   */
  walCheckpointer?: WalCheckpointerOptions;
}

/** PostgreSQL: a new connection gives up after this long (the request answers 503). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** Opens the shop's database: PostgreSQL when a URL is given, else an embedded SQLite file (WAL). */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    const onConnectionError =
      options.onConnectionError ??
      ((err: Error) => console.error(`database: a connection failed: ${err.message}`));
    pool.on('error', onConnectionError);
    // A connection lost while checked out (a query running, or handed to a request just as the
    // server went away) emits 'error' on the client, which nobody listens to while it is out of
    // the pool (Kysely does not): an uncaught exception. The query itself fails on its own and
    // the pool drops the broken client on release; this listener only keeps the process alive.
    pool.on('connect', (client) => client.on('error', onConnectionError));
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
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Statement journals (a multi-row insert inside a transaction, such as an intake batch's
  // events) stay in memory instead of a temporary file created and unlinked per statement.
  sqlite.pragma('temp_store = MEMORY');
  const generations = sqliteDataGenerations(sqlite);
  const db = new Kysely<Database>({ dialect: createSqliteDialect(sqlite, generations.wrote) });
  registerDataGenerations(db, generations);
  if (!options.walCheckpointer) {
    return { db, kind: 'sqlite', location: file, close: () => db.destroy() };
  }
  const { onExit } = options.walCheckpointer;
  sqlite.pragma(`wal_autocheckpoint = ${CHECKPOINTER_SAFETY_PAGES}`);
  const checkpointer = startWalCheckpointer(file, {
    ...options.walCheckpointer,
    // Only an end of its own is reported, never one after close() began: the connection is open.
    onExit: (detail) => {
      // Without it the connection checkpoints by itself again, as SQLite does by default.
      sqlite.pragma(`wal_autocheckpoint = ${OWN_CHECKPOINT_PAGES}`);
      onExit?.(detail);
    },
  });
  return {
    db,
    kind: 'sqlite',
    location: file,
    checkpointer,
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

/** A cheap round trip that proves the database answers. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** PostgreSQL SQLSTATEs that mean the server is unreachable, not that the query is wrong. */
const POSTGRES_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown: terminated by pg_terminate_backend or a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections
]);
/** Socket errors of a connection that could not be made or was lost. */
const NETWORK_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** SQLite result codes of a database file that cannot be opened, read or written right now. */
const SQLITE_UNAVAILABLE =
  /^SQLITE_(CANTOPEN|IOERR|BUSY|LOCKED|READONLY|NOTADB|FULL|PERM|AUTH)(_|$)/;
/** Messages of pg's own connection errors, which carry no code. */
const PG_CONNECTION_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed)/;

/**
 * Whether an error means the database cannot be reached (the api answers 503
 * DATABASE_UNAVAILABLE) rather than a bug in a query (500). Looks through `cause` chains.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let err = error, depth = 0; err instanceof Error && depth < 5; depth++) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (POSTGRES_UNAVAILABLE.has(code) || code.startsWith('08')) return true;
      if (NETWORK_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
    }
    if (PG_CONNECTION_MESSAGE.test(err.message)) return true;
    err = (err as { cause?: unknown }).cause;
  }
  return false;
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
