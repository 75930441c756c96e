import type { Kysely, Transaction } from 'kysely';
import { prepareSharedQuery, prepareSharedStatement } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { badRequest, conflict } from '../../http/errors.js';
import {
  LOYALTY_WELCOME_POINTS,
  loyaltyPointsFor,
  loyaltyTierFor,
  nextLoyaltyTier,
  type JoinLoyaltyBody,
  type LoyaltyMembership,
  type LoyaltyStatus,
} from '@showroom/contracts/accounts';
import { randomId, recordId } from '../session/random-id.js';
import type { ShopSession } from '../session/repository.js';

/** How many points history entries the profile shows. */
const HISTORY_LIMIT = 50;

/**
 * The loyalty programme (decision 008): a member earns a point per whole currency unit of each
 * order and moves through bronze, silver and gold; shoppers from the loyalty list are invited
 * first and start with a welcome bonus. The membership belongs to the session's data owner.
 */
export function createLoyalty(db: Kysely<Database>) {
  async function membershipOf(ownerId: string): Promise<LoyaltyMembership | null> {
    const row = await db
      .selectFrom('loyalty_memberships')
      .selectAll()
      .where('session_id', '=', ownerId)
      .executeTakeFirst();
    if (!row) return null;
    const history = await db
      .selectFrom('loyalty_points')
      .select(['id', 'points', 'reason', 'order_id', 'created_at'])
      .where('membership_id', '=', row.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(HISTORY_LIMIT)
      .execute();
    const points = Number(row.points);
    return {
      id: row.id,
      tier: loyaltyTierFor(points),
      points,
      next: nextLoyaltyTier(points),
      birthday: row.birthday,
      joinedAt: row.joined_at,
      history: history.map((entry) => ({
        id: entry.id,
        points: Number(entry.points),
        reason: entry.reason,
        orderId: entry.order_id,
        createdAt: entry.created_at,
      })),
    };
  }

  return {
    async status(session: ShopSession): Promise<LoyaltyStatus> {
      const membership = await membershipOf(session.id);
      return { membership, invited: membership === null && session.shopper?.list === 'loyalty' };
    },

    /** One membership by id: only the session that owns it sees it (404 for anyone else). */
    async find(session: ShopSession, id: string): Promise<LoyaltyMembership | null> {
      const membership = await membershipOf(session.id);
      return membership?.id === id ? membership : null;
    },

    async join(session: ShopSession, body: JoinLoyaltyBody, now: Date): Promise<LoyaltyMembership> {
      if (body.birthday !== undefined && !isPastDate(body.birthday, now)) {
        throw badRequest('birthday', 'Enter your birthday as a real date in the past (YYYY-MM-DD)');
      }
      const at = now.toISOString();
      const invited = session.shopper?.list === 'loyalty';
      const id = randomId('lm');
      await db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('loyalty_memberships')
          .select('id')
          .where('session_id', '=', session.id)
          .executeTakeFirst();
        if (existing)
          throw conflict('ALREADY_MEMBER', 'You are already a member of the loyalty programme');
        await trx
          .insertInto('loyalty_memberships')
          .values({
            id,
            session_id: session.id,
            points: invited ? LOYALTY_WELCOME_POINTS : 0,
            birthday: body.birthday ?? null,
            joined_at: at,
          })
          .execute();
        if (invited) {
          await trx
            .insertInto('loyalty_points')
            .values({
              id: recordId('lp', now),
              membership_id: id,
              points: LOYALTY_WELCOME_POINTS,
              reason: 'welcome',
              order_id: null,
              created_at: at,
            })
            .execute();
        }
      });
      const membership = await membershipOf(session.id);
      if (!membership) throw new Error('Membership vanished after joining');
      return membership;
    },
  };
}

export type Loyalty = ReturnType<typeof createLoyalty>;

// Every order of a member runs these: compiled once (db/prepared.ts).
const membershipPointsOf = prepareSharedQuery((db: Kysely<Database>, ownerId: string) =>
  db.selectFrom('loyalty_memberships').select(['id', 'points']).where('session_id', '=', ownerId),
);

const setMembershipPoints = prepareSharedStatement(
  (db: Kysely<Database>, membershipId: string, points: number) =>
    db.updateTable('loyalty_memberships').set({ points }).where('id', '=', membershipId),
);

const addOrderPoints = prepareSharedStatement(
  (
    db: Kysely<Database>,
    id: string,
    membershipId: string,
    points: number,
    orderId: string,
    createdAt: string,
  ) =>
    db.insertInto('loyalty_points').values({
      id,
      membership_id: membershipId,
      points,
      reason: 'order',
      order_id: orderId,
      created_at: createdAt,
    }),
);

/** Part of placing an order: a member of the owner earns the order's points (same transaction). */
export async function earnOrderPoints(
  trx: Transaction<Database>,
  ownerId: string,
  orderId: string,
  totalCents: number,
  now: Date,
): Promise<void> {
  const [membership] = await membershipPointsOf(trx, ownerId);
  const points = loyaltyPointsFor(totalCents);
  if (!membership || points === 0) return;
  await setMembershipPoints(trx, membership.id, Number(membership.points) + points);
  await addOrderPoints(trx, recordId('lp', now), membership.id, points, orderId, now.toISOString());
}

/** A calendar date (YYYY-MM-DD) that exists and is before today. */
function isPastDate(text: string, now: Date): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return (
    !Number.isNaN(date.getTime()) &&
    date.toISOString().slice(0, 10) === text &&
    date.getTime() < now.getTime() &&
    date.getUTCFullYear() >= 1900
  );
}
