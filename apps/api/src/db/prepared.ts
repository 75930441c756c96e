import type { Compilable, CompiledQuery, Kysely } from 'kysely';

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
  const placeholders = Array.from({ length: build.length }, (_, index) => new Placeholder(index));
  const compiled: CompiledQuery<R> = build(...(placeholders as unknown as Args)).compile();
  const slots = compiled.parameters.map((value) =>
    value instanceof Placeholder ? value.index : -1,
  );
  if (!slots.some((slot) => slot >= 0) && placeholders.length > 0) {
    throw new Error('prepareQuery: the query uses none of its arguments');
  }
  return async (executor, ...args) => {
    const parameters = slots.map((slot, index) =>
      slot >= 0 ? args[slot] : compiled.parameters[index],
    );
    const result = await (executor ?? db).executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}

class Placeholder {
  constructor(readonly index: number) {}
}
