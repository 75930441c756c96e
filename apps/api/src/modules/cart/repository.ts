import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_LINE_QUANTITY } from '@showroom/contracts/cart-limits';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { prepareSharedQuery, prepareSharedStatement } from '../../db/prepared.js';
import type { RequestSpan } from '../../http/request-tracing.js';
import { recordId } from '../session/random-id.js';

import type { Edition } from '@showroom/contracts/cart';

export type { Edition };

/** A cart line joined with the current price, name and stock of its edition. */
export interface CartLineRecord {
  id: string;
  productId: number;
  edition: Edition;
  quantity: number;
  name: string;
  department: string;
  unitPriceCents: number;
  stock: number;
}

/** One sellable edition of a product: the standard one or its special edition. */
export interface EditionRecord {
  productId: number;
  edition: Edition;
  name: string;
  unitPriceCents: number;
  stock: number;
}

export type CartRepository = ReturnType<typeof createCartRepository>;

/** How a traced read of the cart's lines runs: in a child span of the request's span. */
export interface TracedCartQuery {
  span: RequestSpan | undefined;
  /**
   * The `fault_cart_query_latency_ms` fault (decision 010): the query takes this much longer.
   * On PostgreSQL a real `pg_sleep` on the query's connection; on SQLite (a synchronous driver
   * that must not block the event loop) an awaited delay inside the same span.
   */
  slowMs: number;
}

/** The span of the cart's query, named as the statement it times. */
export const CART_QUERY_SPAN = 'SELECT cart_lines';

const linesQueryOn = (db: Kysely<Database>, sessionId: string) =>
  db
    .selectFrom('cart_lines as cl')
    .innerJoin('products as p', 'p.id', 'cl.product_id')
    .innerJoin('special_editions as se', 'se.product_id', 'p.id')
    .select([
      'cl.id',
      'cl.product_id',
      'cl.edition',
      'cl.quantity',
      'p.name as product_name',
      'p.department_slug',
      'p.price_cents',
      'p.stock',
      'se.name as se_name',
      'se.price_cents as se_price_cents',
      'se.stock as se_stock',
    ])
    .where('cl.session_id', '=', sessionId);

/** A session's lines in cart order: read by every cart answer and by checkout, compiled once. */
const linesOfSession = prepareSharedQuery((db: Kysely<Database>, sessionId: string) =>
  linesQueryOn(db, sessionId).orderBy('cl.created_at').orderBy('cl.id'),
);

/**
 * The same lines, locked for the checkout's transaction on PostgreSQL (`for update of cl`): a
 * concurrent checkout of the same cart waits and then finds the lines gone (CART_EMPTY), a
 * concurrent quantity change waits and then finds its line gone (404), so one cart is sold once
 * (docs/decisions/003-sessions-money-idempotency.md). SQLite runs one transaction at a time.
 */
const lockedLinesOfSession = prepareSharedQuery((db: Kysely<Database>, sessionId: string) => {
  const query = linesQueryOn(db, sessionId).orderBy('cl.created_at').orderBy('cl.id');
  return isPostgres(db) ? query.forUpdate('cl') : query;
});

/** One line of the session's cart, removed (checkout removes the lines it sold), compiled once. */
const removeLine = prepareSharedStatement(
  (db: Kysely<Database>, sessionId: string, lineId: string) =>
    db.deleteFrom('cart_lines').where('session_id', '=', sessionId).where('id', '=', lineId),
);

/** Cart lines of one session at a time; pass a transaction to take part in one. */
export function createCartRepository(db: Kysely<Database>) {
  /** A slow cart query: the database itself waits on PostgreSQL, the event loop is free on SQLite. */
  const slowDown = async (ms: number) => {
    if (isPostgres(db)) await sql`select pg_sleep(${ms / 1000})`.execute(db);
    else await sleep(ms);
  };

  const linesQuery = (sessionId: string) => linesQueryOn(db, sessionId);

  type LineRow = Awaited<ReturnType<ReturnType<typeof linesQuery>['executeTakeFirstOrThrow']>>;
  const toLine = (row: LineRow): CartLineRecord => {
    const special = row.edition === 'special';
    return {
      id: row.id,
      productId: row.product_id,
      edition: row.edition,
      quantity: row.quantity,
      name: special ? row.se_name : row.product_name,
      department: row.department_slug,
      unitPriceCents: special ? row.se_price_cents : row.price_cents,
      stock: special ? row.se_stock : row.stock,
    };
  };

  return {
    /** The session's lines in cart order; with `traced`, in a span of the request's trace. */
    async listLines(sessionId: string, traced?: TracedCartQuery): Promise<CartLineRecord[]> {
      if (!traced?.span) {
        if (traced && traced.slowMs > 0) await slowDown(traced.slowMs);
        return (await linesOfSession(db, sessionId)).map(toLine);
      }
      const postgres = isPostgres(db);
      const span = traced.span.startChild(CART_QUERY_SPAN, {
        'db.system.name': postgres ? 'postgresql' : 'sqlite',
        'db.operation.name': 'SELECT',
        'db.collection.name': 'cart_lines',
        'db.query.summary': 'SELECT cart_lines of a session',
      });
      try {
        if (traced.slowMs > 0) {
          span.setAttributes({
            'fault.flag': 'fault_cart_query_latency_ms',
            'fault.value': traced.slowMs,
          });
          await slowDown(traced.slowMs);
        }
        const rows = await linesOfSession(db, sessionId);
        span.setAttributes({ 'db.response.returned_rows': rows.length });
        return rows.map(toLine);
      } catch (err) {
        span.recordError(err instanceof Error ? err : new Error(String(err)));
        throw err;
      } finally {
        span.end();
      }
    },

    /** The session's lines for checkout, locked until its transaction ends (PostgreSQL). */
    async lockLines(sessionId: string): Promise<CartLineRecord[]> {
      return (await lockedLinesOfSession(db, sessionId)).map(toLine);
    },

    async findLine(sessionId: string, lineId: string): Promise<CartLineRecord | undefined> {
      const row = await linesQuery(sessionId).where('cl.id', '=', lineId).executeTakeFirst();
      return row ? toLine(row) : undefined;
    },

    async findLineFor(
      sessionId: string,
      productId: number,
      edition: Edition,
    ): Promise<CartLineRecord | undefined> {
      const row = await linesQuery(sessionId)
        .where('cl.product_id', '=', productId)
        .where('cl.edition', '=', edition)
        .executeTakeFirst();
      return row ? toLine(row) : undefined;
    },

    async counts(sessionId: string): Promise<{ itemCount: number; lineCount: number }> {
      const row = await db
        .selectFrom('cart_lines')
        .where('session_id', '=', sessionId)
        .select((eb) => [
          eb.fn.countAll<string | number>().as('line_count'),
          eb.fn.sum<string | number | null>('quantity').as('item_count'),
        ])
        .executeTakeFirstOrThrow();
      return { itemCount: Number(row.item_count ?? 0), lineCount: Number(row.line_count) };
    },

    async findEdition(productId: number, edition: Edition): Promise<EditionRecord | undefined> {
      const row = await db
        .selectFrom('products as p')
        .innerJoin('special_editions as se', 'se.product_id', 'p.id')
        .select([
          'p.name',
          'p.price_cents',
          'p.stock',
          'se.name as se_name',
          'se.price_cents as se_price_cents',
          'se.stock as se_stock',
        ])
        .where('p.id', '=', productId)
        .executeTakeFirst();
      if (!row) return undefined;
      return edition === 'special'
        ? {
            productId,
            edition,
            name: row.se_name,
            unitPriceCents: row.se_price_cents,
            stock: row.se_stock,
          }
        : { productId, edition, name: row.name, unitPriceCents: row.price_cents, stock: row.stock };
    },

    /**
     * Adds quantity to the session's line for this edition, creating it when absent. Answers the
     * line id, or undefined when the line would pass `maxQuantity` (default MAX_LINE_QUANTITY):
     * the condition is part of the upsert, so adds racing on one line cannot pass it together.
     */
    async addToLine(
      sessionId: string,
      line: { productId: number; edition: Edition; quantity: number },
      now: Date,
      maxQuantity: number = MAX_LINE_QUANTITY,
    ): Promise<string | undefined> {
      const row = await db
        .insertInto('cart_lines')
        .values({
          id: recordId('line', now),
          session_id: sessionId,
          product_id: line.productId,
          edition: line.edition,
          quantity: line.quantity,
          created_at: now.toISOString(),
        })
        .onConflict((oc) =>
          oc
            .columns(['session_id', 'product_id', 'edition'])
            .doUpdateSet((eb) => ({
              quantity: eb('cart_lines.quantity', '+', eb.ref('excluded.quantity')),
            }))
            .where((eb) =>
              eb(
                eb('cart_lines.quantity', '+', eb.ref('excluded.quantity')),
                '<=',
                Math.min(maxQuantity, MAX_LINE_QUANTITY),
              ),
            ),
        )
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    async setQuantity(sessionId: string, lineId: string, quantity: number): Promise<boolean> {
      const result = await db
        .updateTable('cart_lines')
        .set({ quantity })
        .where('session_id', '=', sessionId)
        .where('id', '=', lineId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async removeLine(sessionId: string, lineId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('cart_lines')
        .where('session_id', '=', sessionId)
        .where('id', '=', lineId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Locks the session's row until the transaction ends (PostgreSQL `for update`; SQLite runs
     * one transaction at a time): changes that replace the whole cart then run one after the
     * other.
     */
    async lockSession(sessionId: string): Promise<void> {
      if (!isPostgres(db)) return;
      await db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', sessionId)
        .forUpdate()
        .execute();
    },

    /** Removes these lines (the ones an order took); lines added since stay in the cart. */
    async removeLines(sessionId: string, lineIds: string[]): Promise<void> {
      for (const lineId of lineIds) await removeLine(db, sessionId, lineId);
    },

    async clear(sessionId: string): Promise<void> {
      await db.deleteFrom('cart_lines').where('session_id', '=', sessionId).execute();
    },
  };
}
