import type BetterSqlite3 from 'better-sqlite3';
import type { OperationNode } from 'kysely';

/**
 * A number that moves whenever some data may have changed, by this process or by another one:
 * what the api's in-process caches of hot reads compare before answering from memory
 * (docs/architecture.md "Performance"). Equal numbers mean no write to the data in between; a
 * moved number may also follow a write that changed nothing (a rollback, a statement whose
 * tables are not known).
 */
export type DataGeneration = () => number;

/** The generations of one database, by the tables a cached read depends on. */
export interface DataGenerations {
  /** The generation of the data in `tables`. */
  of(tables: readonly string[]): DataGeneration;
}

/**
 * SQLite's generations. This connection's own write statements move the generation of the
 * tables they write as they run (the dialect reports each one with `wrote`; a statement whose
 * tables are not known moves every generation), and `PRAGMA data_version` shows commits made by
 * any other connection to the file (another process, a tool), which move every generation.
 *
 * The pragma takes SQLite's read lock: three system calls (two fcntl locks on the shared-memory
 * file and an fstat), about 2.3 µs alone and more than the rest of a cached read; read once per
 * request it cost GET /products/{id} about a third of its rate (decision 021). So it is read
 * once per turn of the event loop, by the first generation asked in the turn, and its answer
 * is forgotten in the turn's check phase: a request sees every commit made before that first
 * read of the turn that handles it, and a commit made after it is seen from the next turn, so
 * another process's commit is at most one turn late. While a transaction of this connection is
 * open the pragma is not read and nothing counts as unchanged.
 */
export function sqliteDataGenerations(
  database: BetterSqlite3.Database,
): DataGenerations & { wrote(tables: readonly string[] | undefined): void } {
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  let seen = dataVersion.get();
  /** Moves for what may have changed any table. */
  let everything = 0;
  const counters = new Map<string, { count: number }>();
  const counter = (table: string) => {
    let found = counters.get(table);
    if (found === undefined) counters.set(table, (found = { count: 0 }));
    return found;
  };
  /** Whether `seen` was read in this turn of the event loop. */
  let current = false;
  let forgetScheduled = false;
  const forget = () => {
    current = false;
    forgetScheduled = false;
  };
  const lookElsewhere = () => {
    if (current) return;
    if (database.inTransaction) {
      // A transaction of this connection is open (another request's, between two of its
      // statements): the pragma would answer from that transaction's snapshot, and would open
      // one for a transaction that has not read yet, whose first write could then fail with
      // SQLITE_BUSY_SNAPSHOT. Nothing is known unchanged; the read waits for the connection.
      everything += 1;
      return;
    }
    let version: unknown;
    try {
      version = dataVersion.get();
    } catch {
      // The connection cannot run a statement right now: nothing can be known unchanged.
      everything += 1;
      return;
    }
    if (version !== seen) {
      seen = version;
      everything += 1;
    }
    current = true;
    if (!forgetScheduled) {
      forgetScheduled = true;
      setImmediate(forget);
    }
  };
  return {
    of(tables) {
      const watched = tables.map(counter);
      return () => {
        lookElsewhere();
        let generation = everything;
        for (const table of watched) generation += table.count;
        return generation;
      };
    },
    wrote(tables) {
      if (tables === undefined) everything += 1;
      else for (const table of tables) counter(table).count += 1;
    },
  };
}

/**
 * The tables a statement writes, from its Kysely query: INSERT, UPDATE, DELETE and MERGE name
 * them; anything else that writes (raw SQL, schema changes, a WITH clause) answers undefined,
 * meaning any table.
 */
export function writtenTables(query: OperationNode): string[] | undefined {
  const node = query as OperationNode & {
    with?: unknown;
    into?: OperationNode;
    table?: OperationNode;
    from?: { froms: readonly OperationNode[] };
  };
  if (node.with !== undefined) return undefined;
  let targets: readonly (OperationNode | undefined)[];
  switch (node.kind) {
    case 'InsertQueryNode':
    case 'MergeQueryNode':
      targets = [node.into];
      break;
    case 'UpdateQueryNode':
      targets = [node.table];
      break;
    case 'DeleteQueryNode':
      targets = node.from?.froms ?? [];
      break;
    default:
      return undefined;
  }
  const names: string[] = [];
  for (const target of targets) {
    const name = tableName(target);
    if (name === undefined) return undefined;
    names.push(name);
  }
  return names.length > 0 ? names : undefined;
}

function tableName(node: OperationNode | undefined): string | undefined {
  if (node?.kind === 'AliasNode') return tableName((node as { node?: OperationNode }).node);
  if (node?.kind !== 'TableNode') return undefined;
  return (node as { table?: { identifier?: { name?: string } } }).table?.identifier?.name;
}

const registered = new WeakMap<object, DataGenerations>();

/** Ties a database's generations to the Kysely instance its repositories are given. */
export function registerDataGenerations(db: object, generations: DataGenerations): void {
  registered.set(db, generations);
}

/**
 * The generation of `db`'s data in `tables`, or undefined where none is known (PostgreSQL,
 * whose other replicas' commits this process does not hear of): there, every read goes to the
 * database.
 */
export function dataGenerationOf(
  db: object,
  tables: readonly string[],
): DataGeneration | undefined {
  return registered.get(db)?.of(tables);
}

/**
 * Values read from the database kept while their generation stands still: `get` answers the
 * kept value when nothing was written to its tables since it was read, else reads it with
 * `load`. Without a generation (PostgreSQL) every `get` loads. A value is kept under the
 * generation taken before its read, so one read across a write is dropped by the next `get`;
 * values are shared, so callers must not change them.
 */
export function createGenerationCache<K, V>(
  generation: DataGeneration | undefined,
  maxEntries: number,
): { get(key: K, load: () => Promise<V>): Promise<V> } {
  const kept = new Map<K, V>();
  let keptAt = -1;
  return {
    async get(key, load) {
      if (generation === undefined) return load();
      const before = generation();
      if (before !== keptAt) {
        kept.clear();
        keptAt = before;
      } else if (kept.has(key)) {
        return kept.get(key) as V;
      }
      const value = await load();
      // A write during the load moved the generation: the next `get` clears what this keeps.
      if (keptAt === before) {
        if (kept.size >= maxEntries) kept.clear();
        kept.set(key, value);
      }
      return value;
    },
  };
}
