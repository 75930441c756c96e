import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ApiError, conflict } from '../../http/errors.js';
import { MAX_LINE_QUANTITY } from '@showroom/contracts/cart-limits';
import type { SignInBody, SignUpBody } from '@showroom/contracts/accounts';
import { randomId } from '../session/random-id.js';
import type { SessionRepository, ShopSession } from '../session/repository.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { consumeVerification, type Verifications } from './verifications.js';

/** E-mail addresses are kept and compared trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface AccountsOptions {
  db: Kysely<Database>;
  sessions: SessionRepository;
  verifications: Verifications;
}

/**
 * Sign-up with an e-mailed code, sign-in, sign-out (decision 008). Verifying turns the session
 * that signed up into the account's data owner, so its cart, orders and cards become the
 * account's; every sign-in starts a new browser session (a new cookie), so an id known before
 * sign-in never reaches the account.
 */
export function createAccounts({ db, sessions, verifications }: AccountsOptions) {
  async function emailTaken(email: string, exceptAccountId?: string): Promise<boolean> {
    let query = db.selectFrom('accounts').select('id').where('email', '=', email);
    if (exceptAccountId) query = query.where('id', '!=', exceptAccountId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  return {
    emailTaken,

    /** The session as it is now (after an edit of its persona). */
    reload: (session: ShopSession) => sessions.find(session.browserSessionId),

    async signUp(session: ShopSession, body: SignUpBody, now: Date) {
      if (session.account) {
        throw conflict(
          'ALREADY_SIGNED_IN',
          'You are signed in: sign out to create another account',
        );
      }
      const email = normaliseEmail(body.email);
      if (await emailTaken(email)) {
        throw conflict(
          'EMAIL_TAKEN',
          'An account with this e-mail address exists: sign in instead',
          'email',
        );
      }
      const passwordHash = await hashPassword(body.password);
      return verifications.start(
        session.id,
        'signup',
        { email, name: body.name.trim(), passwordHash },
        now,
      );
    },

    /** The code matched: the account exists and a new browser session is signed in to it. */
    async verifySignUp(session: ShopSession, code: string, now: Date): Promise<ShopSession> {
      if (session.account) {
        throw conflict(
          'ALREADY_SIGNED_IN',
          'You are signed in: sign out to create another account',
        );
      }
      const pending = await verifications.check(session.id, 'signup', code, now);
      if (await emailTaken(pending.email)) {
        throw conflict(
          'EMAIL_TAKEN',
          'An account with this e-mail address exists: sign in instead',
          'email',
        );
      }
      const accountId = randomId('acc');
      const at = now.toISOString();
      const shopper = session.shopper;
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('accounts')
          .values({
            id: accountId,
            email: pending.email,
            name: pending.name ?? pending.email,
            password_hash: pending.password_hash ?? '',
            owner_session_id: session.id,
            team: shopper?.team ?? '',
            use_discount: shopper?.useDiscount === true ? 1 : 0,
            use_new_checkout_flow: shopper?.useNewCheckoutFlow ? 1 : 0,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await trx
          .updateTable('sessions')
          .set({ kind: 'account', updated_at: at })
          .where('id', '=', session.id)
          .execute();
        await consumeVerification(trx, session.id, 'signup');
      });
      return sessions.create(now, accountId);
    },

    /**
     * Email and password of an account: a new browser session signed in to it, with this
     * browser's anonymous cart merged into the account's. One answer for an unknown address
     * and a wrong password.
     */
    async signIn(session: ShopSession, body: SignInBody, now: Date): Promise<ShopSession> {
      const account = await db
        .selectFrom('accounts')
        .select(['id', 'password_hash', 'owner_session_id'])
        .where('email', '=', normaliseEmail(body.email))
        .executeTakeFirst();
      const matches = await verifyPassword(
        body.password,
        account?.password_hash ?? (await dummyPasswordHash()),
      );
      if (!account || !matches) {
        throw new ApiError(
          401,
          'INVALID_CREDENTIALS',
          'The e-mail address or the password is not right',
        );
      }
      if (!session.account) {
        await db
          .transaction()
          .execute((trx) => mergeCart(trx, session.id, account.owner_session_id));
      } else {
        await sessions.delete(session.browserSessionId);
      }
      return sessions.create(now, account.id);
    },

    /** The browser session signed in goes; a fresh anonymous one takes its place. */
    async signOut(session: ShopSession, now: Date): Promise<ShopSession> {
      if (session.account) await sessions.delete(session.browserSessionId);
      return sessions.create(now);
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;

/** Moves cart lines to the account; a product already there adds up (capped at the line limit). */
async function mergeCart(trx: Transaction<Database>, fromId: string, toId: string): Promise<void> {
  const lines = await trx
    .selectFrom('cart_lines')
    .selectAll()
    .where('session_id', '=', fromId)
    .execute();
  for (const line of lines) {
    const existing = await trx
      .selectFrom('cart_lines')
      .select(['id', 'quantity'])
      .where('session_id', '=', toId)
      .where('product_id', '=', line.product_id)
      .where('edition', '=', line.edition)
      .executeTakeFirst();
    if (existing) {
      await trx
        .updateTable('cart_lines')
        .set({
          quantity: Math.min(MAX_LINE_QUANTITY, Number(existing.quantity) + Number(line.quantity)),
        })
        .where('id', '=', existing.id)
        .execute();
      await trx.deleteFrom('cart_lines').where('id', '=', line.id).execute();
    } else {
      await trx
        .updateTable('cart_lines')
        .set({ session_id: toId })
        .where('id', '=', line.id)
        .execute();
    }
  }
}
