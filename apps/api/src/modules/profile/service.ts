import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';
import type {
  ProfileAddress,
  ProfileView,
  UpdateProfileBody,
  UpdateProfileResult,
} from '@showroom/contracts/accounts';
import type { ShippingCountry } from '@showroom/contracts/shipping';
import { normaliseEmail, type Accounts } from '../accounts/service.js';
import { consumeVerification, type Verifications } from '../accounts/verifications.js';
import type { ShopSession } from '../session/repository.js';

export interface ProfileOptions {
  db: Kysely<Database>;
  accounts: Accounts;
  verifications: Verifications;
}

/**
 * The profile of a session's persona (decision 008): an account's name and e-mail, or the bound
 * sample shopper's with this session's edits; the shipping address kept with the data owner.
 * A new e-mail address is used only once the code sent to it comes back.
 */
export function createProfiles({ db, accounts, verifications }: ProfileOptions) {
  async function view(session: ShopSession): Promise<ProfileView> {
    const [owner, pending] = await Promise.all([
      db
        .selectFrom('sessions')
        .select([
          'profile_name',
          'profile_email',
          'address1',
          'address2',
          'city',
          'postal_code',
          'country',
        ])
        .where('id', '=', session.id)
        .executeTakeFirst(),
      verifications.find(session.id, 'email-change'),
    ]);
    const shopper = session.shopper;
    const address: ProfileAddress | null =
      owner?.address1 && owner.city && owner.postal_code && owner.country
        ? {
            address1: owner.address1,
            ...(owner.address2 ? { address2: owner.address2 } : {}),
            city: owner.city,
            postalCode: owner.postal_code,
            country: owner.country as ShippingCountry,
          }
        : null;
    return {
      kind: session.account ? 'account' : shopper ? 'sample' : 'anonymous',
      id: shopper?.id ?? null,
      name: shopper?.name ?? owner?.profile_name ?? '',
      email: shopper?.email ?? owner?.profile_email ?? '',
      team: shopper?.team ?? '',
      address,
      pendingEmail: pending?.email ?? null,
      tier: shopper?.tier ?? 'none',
      loyaltyMember: shopper?.loyaltyMember ?? false,
    };
  }

  return {
    view,

    async update(
      session: ShopSession,
      body: UpdateProfileBody,
      now: Date,
    ): Promise<UpdateProfileResult> {
      const at = now.toISOString();
      const newEmail = body.email === undefined ? undefined : normaliseEmail(body.email);
      const emailChanges =
        newEmail !== undefined && newEmail !== normaliseEmail(session.shopper?.email ?? '');
      if (emailChanges && (await accounts.emailTaken(newEmail, session.account?.id))) {
        throw conflict('EMAIL_TAKEN', 'Another account uses this e-mail address', 'email');
      }
      await db.transaction().execute(async (trx) => {
        if (body.name !== undefined) {
          const name = body.name.trim();
          if (session.account) {
            await trx
              .updateTable('accounts')
              .set({ name, updated_at: at })
              .where('id', '=', session.account.id)
              .execute();
          } else {
            await trx
              .updateTable('sessions')
              .set({ profile_name: name, updated_at: at })
              .where('id', '=', session.id)
              .execute();
          }
        }
        if (body.address !== undefined) {
          const a = body.address;
          await trx
            .updateTable('sessions')
            .set({
              address1: a?.address1.trim() ?? null,
              address2: a?.address2?.trim() || null,
              city: a?.city.trim() ?? null,
              postal_code: a?.postalCode.trim() ?? null,
              country: a?.country ?? null,
              updated_at: at,
            })
            .where('id', '=', session.id)
            .execute();
        }
      });
      const verification = emailChanges
        ? await verifications.start(session.id, 'email-change', { email: newEmail }, now)
        : null;
      return { profile: await view(await refreshed(session)), verification };
    },

    /** The code sent to the new address came back: the persona's e-mail is that address. */
    async confirmEmail(session: ShopSession, code: string, now: Date): Promise<ProfileView> {
      const pending = await verifications.check(session.id, 'email-change', code, now);
      if (session.account && (await accounts.emailTaken(pending.email, session.account.id))) {
        throw conflict('EMAIL_TAKEN', 'Another account uses this e-mail address', 'email');
      }
      const at = now.toISOString();
      await db.transaction().execute(async (trx) => {
        if (session.account) {
          await trx
            .updateTable('accounts')
            .set({ email: pending.email, updated_at: at })
            .where('id', '=', session.account.id)
            .execute();
        } else {
          await trx
            .updateTable('sessions')
            .set({ profile_email: pending.email, updated_at: at })
            .where('id', '=', session.id)
            .execute();
        }
        await consumeVerification(trx, session.id, 'email-change');
      });
      return view(await refreshed(session));
    },
  };

  /** The session re-read after an edit of its persona. */
  async function refreshed(session: ShopSession): Promise<ShopSession> {
    return (await accounts.reload(session)) ?? session;
  }
}

export type Profiles = ReturnType<typeof createProfiles>;
