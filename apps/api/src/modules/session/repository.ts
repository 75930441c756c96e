import type { Kysely, Selectable } from 'kysely';
import { prepareQuery } from '../../db/prepared.js';
import type { Database, SessionTable } from '../../db/schema.js';
import { randomId } from './random-id.js';
import type { BoundShopper } from '@showroom/contracts/session';
import { DEMO_USER, type SampleShopper, type ShopperListName } from '@showroom/contracts/shopper';

export type { BoundShopper };

/** A server session: the owner of a cart, orders and saved payment methods. */
export interface ShopSession {
  id: string;
  shopper: BoundShopper | null;
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;

export function createSessionRepository(db: Kysely<Database>) {
  // Every cart, checkout and order request reads its session: compiled once.
  const sessionById = prepareQuery(db, (id: string) =>
    db.selectFrom('sessions').selectAll().where('id', '=', id),
  );

  return {
    async create(now: Date): Promise<ShopSession> {
      const id = randomId('ses');
      const at = now.toISOString();
      await db
        .insertInto('sessions')
        .values({
          id,
          created_at: at,
          updated_at: at,
          shopper_id: null,
          shopper_list: null,
          shopper_name: null,
          shopper_email: null,
          shopper_team: null,
          shopper_use_discount: 0,
          shopper_use_new_checkout_flow: 0,
        })
        .execute();
      return { id, shopper: null };
    },

    async find(id: string): Promise<ShopSession | undefined> {
      const [row] = await sessionById(undefined, id);
      return row ? toSession(row) : undefined;
    },

    async bindShopper(
      sessionId: string,
      shopper: SampleShopper,
      list: ShopperListName,
      now: Date,
    ): Promise<void> {
      await db
        .updateTable('sessions')
        .set({
          shopper_id: shopper.id,
          shopper_list: list,
          shopper_name: shopper.name,
          shopper_email: shopper.email,
          shopper_team: shopper.team,
          shopper_use_discount: shopper.useDiscount === true ? 1 : 0,
          shopper_use_new_checkout_flow: shopper.useNewCheckoutFlow ? 1 : 0,
          updated_at: now.toISOString(),
        })
        .where('id', '=', sessionId)
        .execute();
    },

    async unbindShopper(sessionId: string, now: Date): Promise<void> {
      await db
        .updateTable('sessions')
        .set({
          shopper_id: null,
          shopper_list: null,
          shopper_name: null,
          shopper_email: null,
          shopper_team: null,
          shopper_use_discount: 0,
          shopper_use_new_checkout_flow: 0,
          updated_at: now.toISOString(),
        })
        .where('id', '=', sessionId)
        .execute();
    },
  };
}

function toSession(row: Selectable<SessionTable>): ShopSession {
  const shopper: BoundShopper | null =
    row.shopper_id === null
      ? null
      : {
          id: row.shopper_id,
          list: (row.shopper_list ?? 'standard') as ShopperListName,
          name: row.shopper_name ?? '',
          email: row.shopper_email ?? '',
          team: row.shopper_team ?? '',
          // The column holds 0/1; only the demo user's record says null.
          useDiscount:
            row.shopper_list === 'demo'
              ? DEMO_USER.useDiscount
              : Number(row.shopper_use_discount) === 1,
          useNewCheckoutFlow: Number(row.shopper_use_new_checkout_flow) === 1,
        };
  return { id: row.id, shopper };
}
