import { toCardBrand, type CardBrand } from '@showroom/contracts/card-brand';
import type { Kysely } from 'kysely';
import { columnsOf, prepareSharedRowsStatement } from '../../db/prepared.js';
import type { Database, PaymentTable } from '../../db/schema.js';
import { randomId, recordId } from '../session/random-id.js';
import type { CardToken } from './gateway.js';

/** A saved card as the shop keeps it: brand, last four, expiry and the gateway's token. */
export interface StoredPaymentMethod {
  id: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  token: string;
  isDefault: boolean;
  createdAt: string;
}

export interface PaymentRecord {
  orderId: string;
  sessionId: string;
  amountCents: number;
  currency: string;
  method: 'card' | 'saved';
  cardBrand: string;
  cardLast4: string;
  gatewayChargeId: string;
}

// Every order writes one: compiled once per dialect (db/prepared.ts).
const insertPaymentRows = prepareSharedRowsStatement<Database, PaymentTable, unknown>(
  columnsOf<PaymentTable>({
    id: true,
    order_id: true,
    session_id: true,
    amount_cents: true,
    currency: true,
    status: true,
    method: true,
    card_brand: true,
    card_last4: true,
    gateway_charge_id: true,
    created_at: true,
  }),
  (db, rows) => db.insertInto('payments').values(rows),
);

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;

/** Payment methods and payment records; pass a transaction to take part in one. */
export function createPaymentsRepository(db: Kysely<Database>) {
  return {
    async listMethods(sessionId: string): Promise<StoredPaymentMethod[]> {
      const rows = await db
        .selectFrom('payment_methods')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('is_default', 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toMethod);
    },

    async findMethod(sessionId: string, id: string): Promise<StoredPaymentMethod | undefined> {
      const row = await db
        .selectFrom('payment_methods')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toMethod(row) : undefined;
    },

    /** The first card saved is the default one. */
    async saveMethod(sessionId: string, card: CardToken, now: Date): Promise<StoredPaymentMethod> {
      const other = await db
        .selectFrom('payment_methods')
        .select('id')
        .where('session_id', '=', sessionId)
        .executeTakeFirst();
      const row = {
        id: randomId('pm'),
        session_id: sessionId,
        brand: card.brand,
        last4: card.last4,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        token: card.token,
        is_default: other ? 0 : 1,
        created_at: now.toISOString(),
      };
      await db.insertInto('payment_methods').values(row).execute();
      return toMethod(row);
    },

    /** Deleting the default card makes the newest remaining one the default. */
    async deleteMethod(sessionId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('payment_methods')
          .where('session_id', '=', sessionId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        const hasDefault = await trx
          .selectFrom('payment_methods')
          .select('id')
          .where('session_id', '=', sessionId)
          .where('is_default', '=', 1)
          .executeTakeFirst();
        if (!hasDefault) {
          const newest = await trx
            .selectFrom('payment_methods')
            .select('id')
            .where('session_id', '=', sessionId)
            .orderBy('created_at', 'desc')
            .orderBy('id')
            .executeTakeFirst();
          if (newest) {
            await trx
              .updateTable('payment_methods')
              .set({ is_default: 1 })
              .where('id', '=', newest.id)
              .execute();
          }
        }
        return true;
      });
    },

    /** Makes one of the session's cards the default; false when it has no such card. */
    async setDefault(sessionId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('payment_methods')
          .select('id')
          .where('session_id', '=', sessionId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!found) return false;
        await trx
          .updateTable('payment_methods')
          .set({ is_default: 0 })
          .where('session_id', '=', sessionId)
          .execute();
        await trx
          .updateTable('payment_methods')
          .set({ is_default: 1 })
          .where('id', '=', id)
          .execute();
        return true;
      });
    },

    async recordPayment(payment: PaymentRecord, now: Date): Promise<string> {
      const id = recordId('pay', now);
      await insertPaymentRows(db, [
        {
          id,
          order_id: payment.orderId,
          session_id: payment.sessionId,
          amount_cents: payment.amountCents,
          currency: payment.currency,
          status: 'captured',
          method: payment.method,
          card_brand: payment.cardBrand,
          card_last4: payment.cardLast4,
          gateway_charge_id: payment.gatewayChargeId,
          created_at: now.toISOString(),
        },
      ]);
      return id;
    },
  };
}

function toMethod(row: {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  token: string;
  is_default: number;
  created_at: string;
}): StoredPaymentMethod {
  return {
    id: row.id,
    brand: toCardBrand(row.brand),
    last4: row.last4,
    expMonth: row.exp_month,
    expYear: row.exp_year,
    token: row.token,
    isDefault: Number(row.is_default) === 1,
    createdAt: row.created_at,
  };
}
