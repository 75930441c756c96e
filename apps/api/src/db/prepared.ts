import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/**
 * A query built and compiled once, run with new parameter values: hot reads skip Kysely's
 * per-call builder and compiler work (docs/architecture.md "Processes": Kysely over
 * better-sqlite3 or PostgreSQL). `build` is called once with placeholders, one per declared
 * argument; each placeholder must be used as a plain value (`where(col, '=', id)`), never
 * inspected. The answer runs the query on `db` (or a transaction) and answers its rows.
 */
export function prepareQuery<DB, Args extends unknown[], R>(
  db: Kysely<DB>,
  build: (...args: Args) => Compilable<R>,
): (executor: Kysely<DB> | undefined, ...args: Args) => Promise<R[]> {
  const template = compileTemplate(build.length, (placeholders) =>
    build(...(placeholders as Args)),
  );
  return async (executor, ...args) => {
    const result = await (executor ?? db).executeQuery<R>(template.bind(args));
    return result.rows;
  };
}

/**
 * A multi-row statement (an insert of `rows`) compiled once per row count: `build` gets rows
 * whose `columns` are placeholders. Every row passed later must have a value (or null) for each
 * of `columns` and no other key.
 */
export function prepareRowsStatement<DB, Row extends object, R>(
  columns: readonly (keyof Row & string)[],
  build: (rows: Row[]) => Compilable<R>,
): (executor: Kysely<DB>, rows: readonly Row[]) => Promise<QueryResult<R>> {
  // Built on `db` but run on `executor` (a transaction): the SQL is the dialect's either way.
  return prepareSharedRowsStatement<DB, Row, R>(columns, (_executor, rows) => build(rows));
}

/** Compiles `build` over `count` rows whose `columns` are placeholders. */
function compileRowsTemplate<Row extends object, R>(
  columns: readonly (keyof Row & string)[],
  count: number,
  build: (rows: Row[]) => Compilable<R>,
): Template<R> {
  return compileTemplate(count * columns.length, (placeholders) =>
    build(
      Array.from(
        { length: count },
        (_row, r) =>
          Object.fromEntries(
            columns.map((column, c) => [column, placeholders[r * columns.length + c]]),
          ) as Row,
      ),
    ),
  );
}

/** The rows' values in template order: row by row, `columns` in order. */
function rowValues<Row extends object>(
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
): unknown[] {
  const values: unknown[] = [];
  for (const row of rows) {
    for (const column of columns) values.push(row[column]);
  }
  return values;
}

interface Template<R> {
  bind(values: readonly unknown[]): CompiledQuery<R>;
}

/** Compiles `build` over `count` placeholders; `bind` puts values where they were used. */
function compileTemplate<R>(
  count: number,
  build: (placeholders: unknown[]) => Compilable<R>,
): Template<R> {
  const placeholders = Array.from({ length: count }, (_, index) => new Placeholder(index));
  const compiled = build(placeholders).compile();
  const slots = compiled.parameters.map((value) =>
    value instanceof Placeholder ? value.index : -1,
  );
  if (count > 0 && !slots.some((slot) => slot >= 0)) {
    throw new Error('a prepared query uses none of its placeholders');
  }
  return {
    bind: (values) => ({
      ...compiled,
      parameters: slots.map((slot, index) =>
        slot >= 0 ? values[slot] : compiled.parameters[index],
      ),
    }),
  };
}

class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * Like prepareQuery, for repositories made per transaction: `build` gets the executor it is
 * compiled on, once per dialect (the SQL depends only on it), and the answer runs on whichever
 * executor — the database or a transaction — it is given.
 */
export function prepareSharedQuery<DB, Args extends unknown[], R>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<R>,
): (executor: Kysely<DB>, ...args: Args) => Promise<R[]> {
  const statement = prepareSharedStatement(build);
  return async (executor, ...args) => (await statement(executor, ...args)).rows;
}

/**
 * prepareSharedQuery for a write: answers the statement's whole result, whose
 * `numAffectedRows` tells an update that found its row from one that did not.
 */
export function prepareSharedStatement<DB, Args extends unknown[], R>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<R>,
): (executor: Kysely<DB>, ...args: Args) => Promise<QueryResult<R>> {
  const templates = new WeakMap<object, Template<R>>();
  return (executor, ...args) => {
    const adapter = executor.getExecutor().adapter;
    let template = templates.get(adapter);
    if (template === undefined) {
      template = compileTemplate(build.length - 1, (placeholders) =>
        build(executor, ...(placeholders as Args)),
      );
      templates.set(adapter, template);
    }
    return executor.executeQuery<R>(template.bind(args));
  };
}

/**
 * prepareRowsStatement for repositories made per transaction: compiled once per dialect and
 * row count, on the executor it is given.
 */
export function prepareSharedRowsStatement<DB, Row extends object, R>(
  columns: readonly (keyof Row & string)[],
  build: (db: Kysely<DB>, rows: Row[]) => Compilable<R>,
): (executor: Kysely<DB>, rows: readonly Row[]) => Promise<QueryResult<R>> {
  const templates = new WeakMap<object, Map<number, Template<R>>>();
  return (executor, rows) => {
    const adapter = executor.getExecutor().adapter;
    let byCount = templates.get(adapter);
    if (byCount === undefined) {
      byCount = new Map();
      templates.set(adapter, byCount);
    }
    let template = byCount.get(rows.length);
    if (template === undefined) {
      template = compileRowsTemplate(columns, rows.length, (placeholderRows) =>
        build(executor, placeholderRows),
      );
      byCount.set(rows.length, template);
    }
    return executor.executeQuery<R>(template.bind(rowValues(columns, rows)));
  };
}

/**
 * A rows statement's columns, written `{ column: true }` for each column of `Row`: the
 * compiler then checks that none is missing, as a plain list would not.
 */
export function columnsOf<Row extends object>(
  columns: Record<keyof Row & string, true>,
): (keyof Row & string)[] {
  return Object.keys(columns) as (keyof Row & string)[];
}
