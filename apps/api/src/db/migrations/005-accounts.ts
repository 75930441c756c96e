import type { Kysely } from 'kysely';

/**
 * Accounts, the profile, e-mail codes, the outbox and the loyalty programme (decision 008).
 *
 * A session row is either a browser's (its id is the cookie) or, once an account is verified,
 * that account's data owner (`kind = 'account'`): the cart, orders, cards, profile address and
 * membership stay keyed by that row, and every browser signed in to the account reaches them
 * through `sessions.account_id`. No column holds a clear password or a clear code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('owner_session_id', 'text', (col) =>
      col.notNull().unique().references('sessions.id'),
    )
    // The persona's targeting attributes, kept from the sample shopper who signed up.
    .addColumn('team', 'text', (col) => col.notNull())
    .addColumn('use_discount', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('use_new_checkout_flow', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .alterTable('sessions')
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('browser'))
    .execute();
  // No foreign key: SQLite cannot add one to an existing table; sign-out deletes the row.
  await db.schema.alterTable('sessions').addColumn('account_id', 'text').execute();
  for (const column of [
    'profile_name',
    'profile_email',
    'address1',
    'address2',
    'city',
    'postal_code',
    'country',
  ]) {
    await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
  }
  await db.schema
    .alterTable('payment_methods')
    .addColumn('is_default', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('verifications')
    .addColumn('session_id', 'text', (col) =>
      col.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    // A keyed hash (HMAC) of the code, never the code.
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('resend_after', 'text', (col) => col.notNull())
    // Sign-up only: the account to create once the code matches.
    .addColumn('name', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('verifications_pkey', ['session_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('session_id', 'text', (col) =>
      col.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('to_address', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('body_text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('outbox_messages_session_idx')
    .on('outbox_messages')
    .columns(['session_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('loyalty_memberships')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('session_id', 'text', (col) =>
      col.notNull().unique().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('points', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('birthday', 'text')
    .addColumn('joined_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('loyalty_points')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('membership_id', 'text', (col) =>
      col.notNull().references('loyalty_memberships.id').onDelete('cascade'),
    )
    .addColumn('points', 'integer', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('loyalty_points_membership_idx')
    .on('loyalty_points')
    .columns(['membership_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'loyalty_points',
    'loyalty_memberships',
    'outbox_messages',
    'verifications',
    'accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('payment_methods').dropColumn('is_default').execute();
  for (const column of [
    'kind',
    'account_id',
    'profile_name',
    'profile_email',
    'address1',
    'address2',
    'city',
    'postal_code',
    'country',
  ]) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
}
