import type { Kysely, Selectable } from 'kysely';
import { columnsOf, prepareSharedRowsStatement } from '../../db/prepared.js';
import type { Database, OrderLineTable, OrderTable } from '../../db/schema.js';
import { recordId } from '../session/random-id.js';
import type { Order } from '@showroom/contracts/orders';

/** How many of its latest orders a session sees. */
export const ORDER_LIST_LIMIT = 50;

/** An order to store: the api view plus the owning session and the bound shopper. */
export interface NewOrder {
  order: Order;
  sessionId: string;
  shopperId: string | null;
}

// Every order writes these: compiled once per dialect (and line count), db/prepared.ts.
const insertOrderRows = prepareSharedRowsStatement<Database, OrderTable, unknown>(
  columnsOf<OrderTable>({
    id: true,
    session_id: true,
    shopper_id: true,
    status: true,
    currency: true,
    subtotal_cents: true,
    discount_cents: true,
    shipping_cents: true,
    total_cents: true,
    shipping_name: true,
    shipping_email: true,
    shipping_address1: true,
    shipping_address2: true,
    shipping_city: true,
    shipping_postal_code: true,
    shipping_country: true,
    card_brand: true,
    card_last4: true,
    instant_pay_variant: true,
    checkout_flow: true,
    created_at: true,
  }),
  (db, rows) => db.insertInto('orders').values(rows),
);

const insertOrderLineRows = prepareSharedRowsStatement<Database, OrderLineTable, unknown>(
  columnsOf<OrderLineTable>({
    id: true,
    order_id: true,
    position: true,
    product_id: true,
    edition: true,
    name: true,
    unit_price_cents: true,
    quantity: true,
    line_total_cents: true,
  }),
  (db, rows) => db.insertInto('order_lines').values(rows),
);

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;

/** Orders of one session at a time; pass a transaction to take part in one. */
export function createOrdersRepository(db: Kysely<Database>) {
  const withLines = async (rows: Selectable<OrderTable>[]): Promise<Order[]> => {
    if (rows.length === 0) return [];
    const lines = await db
      .selectFrom('order_lines')
      .selectAll()
      .where(
        'order_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('order_id')
      .orderBy('position')
      .execute();
    return rows.map((row) =>
      toOrder(
        row,
        lines.filter((line) => line.order_id === row.id),
      ),
    );
  };

  return {
    async insert({ order, sessionId, shopperId }: NewOrder): Promise<void> {
      const createdAt = new Date(order.createdAt);
      await insertOrderRows(db, [
        {
          id: order.id,
          session_id: sessionId,
          shopper_id: shopperId,
          status: order.status,
          currency: order.currency,
          subtotal_cents: order.subtotalCents,
          discount_cents: order.discountCents,
          shipping_cents: order.shippingCents,
          total_cents: order.totalCents,
          shipping_name: order.shipping.name,
          shipping_email: order.shipping.email,
          shipping_address1: order.shipping.address1,
          shipping_address2: order.shipping.address2 ?? null,
          shipping_city: order.shipping.city,
          shipping_postal_code: order.shipping.postalCode,
          shipping_country: order.shipping.country,
          card_brand: order.payment.brand,
          card_last4: order.payment.last4,
          instant_pay_variant: order.instantPayVariant,
          checkout_flow: order.checkoutFlow,
          created_at: order.createdAt,
        },
      ]);
      await insertOrderLineRows(
        db,
        order.lines.map((line, position) => ({
          id: recordId('ol', createdAt),
          order_id: order.id,
          position,
          product_id: line.productId,
          edition: line.edition,
          name: line.name,
          unit_price_cents: line.unitPriceCents,
          quantity: line.quantity,
          line_total_cents: line.lineTotalCents,
        })),
      );
    },

    /** The session's latest orders, newest first. */
    async listForSession(sessionId: string, limit = ORDER_LIST_LIMIT): Promise<Order[]> {
      const rows = await db
        .selectFrom('orders')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return withLines(rows);
    },

    /** One of the session's orders; another session's order is as good as missing. */
    async findForSession(sessionId: string, id: string): Promise<Order | undefined> {
      const row = await db
        .selectFrom('orders')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      return (await withLines([row]))[0];
    },
  };
}

function toOrder(row: Selectable<OrderTable>, lines: Selectable<OrderLineTable>[]): Order {
  const shipping: Order['shipping'] = {
    name: row.shipping_name,
    email: row.shipping_email,
    address1: row.shipping_address1,
    city: row.shipping_city,
    postalCode: row.shipping_postal_code,
    country: row.shipping_country as Order['shipping']['country'],
  };
  if (row.shipping_address2 !== null) shipping.address2 = row.shipping_address2;
  return {
    id: row.id,
    status: row.status as Order['status'],
    createdAt: row.created_at,
    currency: row.currency,
    lines: lines.map((line) => ({
      productId: line.product_id,
      edition: line.edition as Order['lines'][number]['edition'],
      name: line.name,
      unitPriceCents: line.unit_price_cents,
      quantity: line.quantity,
      lineTotalCents: line.line_total_cents,
    })),
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    subtotalCents: row.subtotal_cents,
    discountCents: row.discount_cents,
    shippingCents: row.shipping_cents,
    totalCents: row.total_cents,
    shipping,
    payment: { brand: row.card_brand, last4: row.card_last4 },
    instantPayVariant: row.instant_pay_variant as Order['instantPayVariant'],
    checkoutFlow: row.checkout_flow as Order['checkoutFlow'],
  };
}
