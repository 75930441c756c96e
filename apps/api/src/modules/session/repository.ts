import { sql, type Kysely } from 'kysely';
import { prepareQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { randomId } from './random-id.js';
import type { BoundShopper } from '@showroom/contracts/session';
import { loyaltyTierFor, type PersonaTier } from '@showroom/contracts/accounts';
import { DEMO_USER, type SampleShopper, type ShopperListName } from '@showroom/contracts/shopper';

export type { BoundShopper };

/** The signed-in account of a session. */
export interface SessionAccount {
  id: string;
  email: string;
  name: string;
}

/**
 * A server session as routes see it. `id` owns the data (cart, orders, cards, profile,
 * membership): the browser's own session, or the signed-in account's owner row (decision 008).
 * `browserSessionId` is the id in the cookie.
 */
export interface ShopSession {
  id: string;
  browserSessionId: string;
  account: SessionAccount | null;
  /** The persona: the account, or the bound sample shopper; null when anonymous. */
  shopper: BoundShopper | null;
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;

const EMPTY_SHOPPER = {
  shopper_id: null,
  shopper_list: null,
  shopper_name: null,
  shopper_email: null,
  shopper_team: null,
  shopper_use_discount: 0,
  shopper_use_new_checkout_flow: 0,
  // A profile edit belongs to the persona it edited.
  profile_name: null,
  profile_email: null,
} as const;

export function createSessionRepository(db: Kysely<Database>) {
  // Every cart, checkout and order request reads its session, with the signed-in account and
  // the owner's membership: one statement, compiled once.
  const sessionById = prepareQuery(db, (id: string) =>
    db
      .selectFrom('sessions as b')
      .leftJoin('accounts as a', 'a.id', 'b.account_id')
      .leftJoin('loyalty_memberships as m', (join) =>
        join.on(sql<boolean>`m.session_id = coalesce(a.owner_session_id, b.id)`),
      )
      .select([
        'b.id',
        'b.kind',
        'b.shopper_id',
        'b.shopper_list',
        'b.shopper_name',
        'b.shopper_email',
        'b.shopper_team',
        'b.shopper_use_discount',
        'b.shopper_use_new_checkout_flow',
        'b.profile_name',
        'b.profile_email',
        'a.id as account_id',
        'a.email as account_email',
        'a.name as account_name',
        'a.team as account_team',
        'a.use_discount as account_use_discount',
        'a.use_new_checkout_flow as account_use_new_checkout_flow',
        'a.owner_session_id',
        'm.points as loyalty_points',
      ])
      .where('b.id', '=', id),
  );

  return {
    async create(now: Date, accountId: string | null = null): Promise<ShopSession> {
      const id = randomId('ses');
      const at = now.toISOString();
      await db
        .insertInto('sessions')
        .values({ id, created_at: at, updated_at: at, ...EMPTY_SHOPPER, account_id: accountId })
        .execute();
      if (accountId === null) return { id, browserSessionId: id, account: null, shopper: null };
      const created = await this.find(id);
      if (!created) throw new Error(`Session ${id} vanished after insert`);
      return created;
    },

    /** The session a cookie names; an account's owner row is no browser session (undefined). */
    async find(id: string): Promise<ShopSession | undefined> {
      const [row] = await sessionById(undefined, id);
      if (!row || row.kind === 'account') return undefined;
      return toSession(row);
    },

    async bindShopper(
      sessionId: string,
      shopper: SampleShopper,
      list: ShopperListName,
      now: Date,
    ): Promise<void> {
      const current = await db
        .selectFrom('sessions')
        .select('shopper_id')
        .where('id', '=', sessionId)
        .executeTakeFirst();
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
          // Another shopper does not inherit the last one's profile edits.
          ...(current?.shopper_id === shopper.id
            ? {}
            : { profile_name: null, profile_email: null }),
          updated_at: now.toISOString(),
        })
        .where('id', '=', sessionId)
        .execute();
    },

    async unbindShopper(sessionId: string, now: Date): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ ...EMPTY_SHOPPER, updated_at: now.toISOString() })
        .where('id', '=', sessionId)
        .execute();
    },

    /** Sign-out: the browser session row goes; the account's data stays with its owner row. */
    async delete(sessionId: string): Promise<void> {
      await db
        .deleteFrom('sessions')
        .where('id', '=', sessionId)
        .where('kind', '=', 'browser')
        .execute();
    },
  };
}

function toSession(row: Record<string, unknown>): ShopSession {
  const r = row as {
    id: string;
    shopper_id: string | null;
    shopper_list: string | null;
    shopper_name: string | null;
    shopper_email: string | null;
    shopper_team: string | null;
    shopper_use_discount: number;
    shopper_use_new_checkout_flow: number;
    profile_name: string | null;
    profile_email: string | null;
    account_id: string | null;
    account_email: string | null;
    account_name: string | null;
    account_team: string | null;
    account_use_discount: number | null;
    account_use_new_checkout_flow: number | null;
    owner_session_id: string | null;
    loyalty_points: number | null;
  };
  const loyaltyMember = r.loyalty_points !== null;
  const tier: PersonaTier = loyaltyMember ? loyaltyTierFor(Number(r.loyalty_points)) : 'none';

  if (r.account_id !== null && r.owner_session_id !== null) {
    const account = { id: r.account_id, email: r.account_email ?? '', name: r.account_name ?? '' };
    return {
      id: r.owner_session_id,
      browserSessionId: r.id,
      account,
      shopper: {
        id: account.id,
        list: 'account',
        name: account.name,
        email: account.email,
        team: r.account_team ?? '',
        useDiscount: Number(r.account_use_discount) === 1,
        useNewCheckoutFlow: Number(r.account_use_new_checkout_flow) === 1,
        loyaltyMember,
        tier,
      },
    };
  }

  const shopper: BoundShopper | null =
    r.shopper_id === null
      ? null
      : {
          id: r.shopper_id,
          list: (r.shopper_list ?? 'standard') as ShopperListName,
          name: r.profile_name ?? r.shopper_name ?? '',
          email: r.profile_email ?? r.shopper_email ?? '',
          team: r.shopper_team ?? '',
          // The column holds 0/1; only the demo user's record says null.
          useDiscount:
            r.shopper_list === 'demo'
              ? DEMO_USER.useDiscount
              : Number(r.shopper_use_discount) === 1,
          useNewCheckoutFlow: Number(r.shopper_use_new_checkout_flow) === 1,
          loyaltyMember,
          tier,
        };
  return { id: r.id, browserSessionId: r.id, account: null, shopper };
}
