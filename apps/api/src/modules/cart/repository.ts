import { MAX_LINE_QUANTITY } from '@showroom/contracts/cart-limits';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { prepareSharedQuery } from '../../db/prepared.js';
import { randomId } from '../session/random-id.js';

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

/** Cart lines of one session at a time; pass a transaction to take part in one. */
export function createCartRepository(db: Kysely<Database>) {
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
    async listLines(sessionId: string): Promise<CartLineRecord[]> {
      const rows = await linesOfSession(db, sessionId);
      return rows.map(toLine);
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
     * line id, or undefined when the line would pass MAX_LINE_QUANTITY (a concurrent add won).
     */
    async addToLine(
      sessionId: string,
      line: { productId: number; edition: Edition; quantity: number },
      now: Date,
    ): Promise<string | undefined> {
      const row = await db
        .insertInto('cart_lines')
        .values({
          id: randomId('line'),
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
                MAX_LINE_QUANTITY,
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

    async clear(sessionId: string): Promise<void> {
      await db.deleteFrom('cart_lines').where('session_id', '=', sessionId).execute();
    },
  };
}
