import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { writtenTables } from './data-generation.js';

/**
 * Kysely's SQLite dialect (docs/architecture.md "Processes": Kysely over better-sqlite3) with
 * two changes for the hot paths the benchmarks measure:
 *
 * - Prepared statements are kept per SQL text (up to STATEMENT_CACHE_SIZE), instead of
 *   preparing every query again; better-sqlite3 re-prepares a kept statement by itself when
 *   the schema changes.
 * - The one connection is handed out first come, first served. Kysely's own lock wakes every
 *   waiting query on each release, so 50 concurrent requests cost each release 50 wake-ups.
 *
 * Semantics are Kysely's: one connection, a transaction holds it until commit or rollback.
 */
const STATEMENT_CACHE_SIZE = 500;

export function createSqliteDialect(
  database: BetterSqlite3.Database,
  /**
   * Called before each statement that may write runs, with the tables it writes (undefined:
   * not known, any table; db/data-generation.ts).
   */
  onWrite: (tables: readonly string[] | undefined) => void = () => {},
): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new CachingSqliteDriver(database, onWrite),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

class CachingSqliteDriver implements Driver {
  readonly #connection: CachingSqliteConnection;
  readonly #lock = new FifoLock();

  constructor(
    private readonly database: BetterSqlite3.Database,
    onWrite: (tables: readonly string[] | undefined) => void,
  ) {
    this.#connection = new CachingSqliteConnection(database, onWrite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.#lock.release();
  }

  async destroy(): Promise<void> {
    this.database.close();
  }
}

/** A kept statement, with the tables it writes: null when it only reads (see `onWrite`). */
interface KeptStatement {
  statement: BetterSqlite3.Statement;
  writes: readonly string[] | undefined | null;
}

class CachingSqliteConnection implements DatabaseConnection {
  readonly #statements = new Map<string, KeptStatement>();

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly onWrite: (tables: readonly string[] | undefined) => void,
  ) {}

  #prepare({ sql, query }: CompiledQuery): KeptStatement {
    let kept = this.#statements.get(sql);
    if (kept === undefined) {
      const statement = this.database.prepare(sql);
      // The same SQL text is the same query, so its tables are found once.
      kept = { statement, writes: statement.readonly ? null : writtenTables(query) };
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        // Drop the oldest: a Map iterates in insertion order.
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
      this.#statements.set(sql, kept);
    }
    return kept;
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { parameters } = compiledQuery;
    const { statement, writes } = this.#prepare(compiledQuery);
    // Before it runs, so a read kept from now on sees it (an INSERT … RETURNING is a `reader`
    // that writes: `readonly` is SQLite's own answer).
    if (writes !== null) this.onWrite(writes);
    if (statement.reader) {
      return Promise.resolve({ rows: statement.all(parameters) as R[] });
    }
    const { changes, lastInsertRowid } = statement.run(parameters);
    return Promise.resolve({
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    });
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) {
      throw new Error('Sqlite driver only supports streaming of select queries');
    }
    // Its own statement: a kept one could be asked to run again while this one iterates.
    const statement = this.database.prepare(compiledQuery.sql);
    for (const row of statement.iterate(compiledQuery.parameters)) yield { rows: [row as R] };
  }
}

/** A lock whose waiters get it in arrival order, one wake-up per release. */
class FifoLock {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}
