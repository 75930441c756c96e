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
 * three changes for the hot paths the benchmarks measure:
 *
 * - Prepared statements are kept per SQL text (up to STATEMENT_CACHE_SIZE), instead of
 *   preparing every query again; better-sqlite3 re-prepares a kept statement by itself when
 *   the schema changes.
 * - The one connection is handed out first come, first served. Kysely's own lock wakes every
 *   waiting query on each release, so 50 concurrent requests cost each release 50 wake-ups.
 * - Transactions are committed in groups (decision 026): each runs alone on the connection,
 *   inside one SQLite transaction that the transactions begun before the event loop's next
 *   turn share (each after the first in a savepoint of its own), and its caller is answered
 *   once that transaction is committed. One COMMIT writes the pages the group changed once,
 *   where each transaction wrote its own.
 *
 * Semantics are Kysely's as a caller sees them: a transaction holds the connection until its
 * end, is rolled back alone when it fails, and resolves only once it is committed; a statement
 * outside a transaction answers only with committed data (a read while a group is open waits
 * for its COMMIT; a write commits the group first).
 */
const STATEMENT_CACHE_SIZE = 500;
const SAVEPOINT = 'showroom_transaction';

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

/** The transactions that share one SQLite transaction, and the answer to its COMMIT. */
class TransactionGroup {
  readonly committed: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Answered to whoever awaits it; a group nobody awaits must not be an unhandled rejection.
    this.committed.catch(() => {});
  }
}

function lostGroupError(): Error {
  return new Error(
    'SQLite rolled back the transaction this one was committed into (a full disk or an I/O ' +
      'error in a transaction of the same group): nothing of it was stored',
  );
}

/** One turn on the connection: what Kysely holds from acquireConnection to releaseConnection. */
class ConnectionTurn implements DatabaseConnection {
  /** Inside a transaction (between beginTransaction and its end). */
  group: TransactionGroup | undefined;
  /** In a savepoint of its own: not the first transaction of its group. */
  savepoint = false;
  /** The connection already handed on while the turn waits for its group's COMMIT. */
  handedOn = false;

  constructor(private readonly driver: CachingSqliteDriver) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, compiledQuery);
  }

  streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.stream(this, compiledQuery);
  }
}

class CachingSqliteDriver implements Driver {
  readonly #connection: CachingSqliteConnection;
  readonly #lock = new FifoLock();
  readonly #onWrite: (tables: readonly string[] | undefined) => void;
  /** The open group: SQLite's transaction is open while it is set. */
  #group: TransactionGroup | undefined;

  constructor(
    private readonly database: BetterSqlite3.Database,
    onWrite: (tables: readonly string[] | undefined) => void,
  ) {
    this.#onWrite = onWrite;
    this.#connection = new CachingSqliteConnection(database, onWrite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    return new ConnectionTurn(this);
  }

  execute<R>(turn: ConnectionTurn, compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (turn.handedOn) {
      return this.#takeBack(turn).then(() => this.execute<R>(turn, compiledQuery));
    }
    if (turn.group !== undefined || this.#group === undefined) {
      return Promise.resolve(this.#connection.run<R>(compiledQuery));
    }
    // Outside a transaction while a group is open: a write must not join the group (its caller
    // is answered when the statement ends), so the group is committed first; a read may see
    // the group's changes, so it answers once they are committed, and hands the connection on
    // meanwhile (the COMMIT needs it).
    const group = this.#group;
    const result = this.#connection.run<R>(compiledQuery, () => this.#commitGroup());
    if (this.#group !== group) return Promise.resolve(result);
    turn.handedOn = true;
    this.#lock.release();
    return group.committed.then(() => result);
  }

  async *stream<R>(
    turn: ConnectionTurn,
    compiledQuery: CompiledQuery,
  ): AsyncIterableIterator<QueryResult<R>> {
    await this.#takeBack(turn);
    // Rows outside a transaction show only what is committed.
    if (turn.group === undefined) this.#commitGroup();
    yield* this.#connection.streamQuery<R>(compiledQuery);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as ConnectionTurn;
    await this.#takeBack(turn);
    if (this.#group === undefined) {
      // The group's first transaction needs no savepoint: it fails alone by rolling back
      // SQLite's transaction, which nothing else is in yet. A savepoint copies each page it
      // changes first (a large intake group about 15 % of its time).
      this.#exec('begin');
      const group = new TransactionGroup();
      this.#group = group;
      // Transactions that take the connection before this does join the group.
      setImmediate(() => void this.#commitWhenFree(group));
    } else {
      this.#exec(`savepoint ${SAVEPOINT}`);
      turn.savepoint = true;
    }
    turn.group = this.#group;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as ConnectionTurn;
    const group = this.#groupOf(turn);
    if (turn.savepoint) this.#exec(`release ${SAVEPOINT}`);
    turn.handedOn = true;
    this.#lock.release();
    await group.committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as ConnectionTurn;
    // Its group's COMMIT failed: nothing of it was stored, and the connection is another's.
    if (turn.handedOn) return;
    const group = turn.group;
    if (this.#isOpen(group)) {
      if (turn.savepoint) {
        this.#exec(`rollback to ${SAVEPOINT}`);
        this.#exec(`release ${SAVEPOINT}`);
      } else {
        // The group's first transaction, alone in it: the group ends with nothing stored.
        this.#group = undefined;
        this.#exec('rollback');
        group.resolve();
      }
    } else {
      // The caller's own error is the one it sees; the group's others get the lost group's.
      this.#loseGroup(group);
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (!(connection as ConnectionTurn).handedOn) this.#lock.release();
  }

  async destroy(): Promise<void> {
    this.#commitGroup();
    this.database.close();
  }

  /**
   * The turn's group, if SQLite's transaction is still open. An error such as a full disk or
   * an I/O error makes SQLite roll the whole transaction back: the group's transactions
   * already committed into it are lost, and they fail.
   */
  #groupOf(turn: ConnectionTurn): TransactionGroup {
    const group = turn.group;
    if (this.#isOpen(group)) return group;
    throw this.#loseGroup(group);
  }

  /** Fails `group` if it is still the open one (SQLite ended its transaction): the error. */
  #loseGroup(group: TransactionGroup | undefined): Error {
    const error = lostGroupError();
    if (group !== undefined && group === this.#group) this.#failGroup(group, error);
    return error;
  }

  #isOpen(group: TransactionGroup | undefined): group is TransactionGroup {
    return group !== undefined && group === this.#group && this.database.inTransaction;
  }

  /**
   * A turn that handed the connection on (a read waiting for its group) takes it back before
   * its next statement.
   */
  async #takeBack(turn: ConnectionTurn): Promise<void> {
    if (!turn.handedOn) return;
    await this.#lock.acquire();
    turn.handedOn = false;
  }

  async #commitWhenFree(group: TransactionGroup): Promise<void> {
    await this.#lock.acquire();
    try {
      if (this.#group === group) this.#commitGroup();
    } finally {
      this.#lock.release();
    }
  }

  /** Commits the open group; called with the connection held. */
  #commitGroup(): void {
    const group = this.#group;
    if (group === undefined) return;
    try {
      this.#exec('commit');
    } catch (error) {
      this.#failGroup(group, error);
      return;
    }
    this.#group = undefined;
    group.resolve();
  }

  #failGroup(group: TransactionGroup, error: unknown): void {
    this.#group = undefined;
    if (this.database.inTransaction) this.#exec('rollback');
    // Reads kept since the group began may hold what was rolled back.
    this.#onWrite(undefined);
    group.reject(error);
  }

  #exec(sql: string): void {
    this.#connection.run(CompiledQuery.raw(sql));
  }
}

/** A kept statement, with the tables it writes: null when it only reads (see `onWrite`). */
interface KeptStatement {
  statement: BetterSqlite3.Statement;
  writes: readonly string[] | undefined | null;
}

class CachingSqliteConnection {
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

  /** Runs a statement; `beforeWrite` is called first when it may write. */
  run<R>(compiledQuery: CompiledQuery, beforeWrite?: () => void): QueryResult<R> {
    const { parameters } = compiledQuery;
    const { statement, writes } = this.#prepare(compiledQuery);
    if (writes !== null) {
      beforeWrite?.();
      // Before it runs, so a read kept from now on sees it (an INSERT … RETURNING is a
      // `reader` that writes: `readonly` is SQLite's own answer).
      this.onWrite(writes);
    }
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    };
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
