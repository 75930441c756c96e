import { sql, type Kysely } from 'kysely';

/**
 * The shop: server sessions, carts, saved payment methods, orders, payments and idempotency
 * records. Ids are random text (`ord_…`), timestamps ISO-8601 text and money integer cents, so
 * the same schema runs on SQLite and PostgreSQL. Card numbers and CVCs have no column anywhere.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    // A snapshot of the bound sample shopper; the discount is decided from it server-side.
    .addColumn('shopper_id', 'text')
    .addColumn('shopper_list', 'text')
    .addColumn('shopper_name', 'text')
    .addColumn('shopper_email', 'text')
    .addColumn('shopper_team', 'text')
    .addColumn('shopper_use_discount', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('shopper_use_new_checkout_flow', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('cart_lines')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('session_id', 'text', (col) =>
      col.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('product_id', 'integer', (col) =>
      col.notNull().references('products.id').onDelete('cascade'),
    )
    .addColumn('edition', 'text', (col) =>
      col.notNull().check(sql`edition in ('standard', 'special')`),
    )
    .addColumn('quantity', 'integer', (col) =>
      col.notNull().check(sql`quantity >= 1 and quantity <= 99`),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('cart_lines_session_product_edition_key', [
      'session_id',
      'product_id',
      'edition',
    ])
    .execute();

  await db.schema
    .createTable('payment_methods')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('session_id', 'text', (col) =>
      col.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('brand', 'text', (col) => col.notNull())
    .addColumn('last4', 'text', (col) => col.notNull())
    .addColumn('exp_month', 'integer', (col) => col.notNull())
    .addColumn('exp_year', 'integer', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('payment_methods_session_idx')
    .on('payment_methods')
    .column('session_id')
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('session_id', 'text', (col) => col.notNull().references('sessions.id'))
    .addColumn('shopper_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('subtotal_cents', 'integer', (col) => col.notNull())
    .addColumn('discount_cents', 'integer', (col) => col.notNull())
    .addColumn('shipping_cents', 'integer', (col) => col.notNull())
    .addColumn('total_cents', 'integer', (col) => col.notNull())
    .addColumn('shipping_name', 'text', (col) => col.notNull())
    .addColumn('shipping_email', 'text', (col) => col.notNull())
    .addColumn('shipping_address1', 'text', (col) => col.notNull())
    .addColumn('shipping_address2', 'text')
    .addColumn('shipping_city', 'text', (col) => col.notNull())
    .addColumn('shipping_postal_code', 'text', (col) => col.notNull())
    .addColumn('shipping_country', 'text', (col) => col.notNull())
    .addColumn('card_brand', 'text', (col) => col.notNull())
    .addColumn('card_last4', 'text', (col) => col.notNull())
    .addColumn('instant_pay_variant', 'text')
    .addColumn('checkout_flow', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('orders_session_created_idx')
    .on('orders')
    .columns(['session_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('order_lines')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) =>
      col.notNull().references('orders.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (col) => col.notNull())
    // No foreign key: an order keeps its history when the catalog changes.
    .addColumn('product_id', 'integer', (col) => col.notNull())
    .addColumn('edition', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('unit_price_cents', 'integer', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('line_total_cents', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('order_lines_order_idx')
    .on('order_lines')
    .column('order_id')
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) => col.notNull().references('orders.id'))
    .addColumn('session_id', 'text', (col) => col.notNull().references('sessions.id'))
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('card_brand', 'text', (col) => col.notNull())
    .addColumn('card_last4', 'text', (col) => col.notNull())
    .addColumn('gateway_charge_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('payments_order_idx').on('payments').column('order_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('session_id', 'text', (col) =>
      col.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('key', 'text', (col) => col.notNull())
    // A keyed hash (HMAC) of the request, never the request itself: the body holds card data.
    .addColumn('request_fingerprint', 'text', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['session_id', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'idempotency_keys',
    'payments',
    'order_lines',
    'orders',
    'payment_methods',
    'cart_lines',
    'sessions',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
