import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, VerificationTable } from '../../db/schema.js';
import { ApiError, errorRef, RetryLaterError } from '../../http/errors.js';
import {
  VERIFICATION_CODE_TTL_MS,
  VERIFICATION_MAX_ATTEMPTS,
  VERIFICATION_RESEND_INTERVAL_MS,
  type PendingVerification,
} from '@showroom/contracts/accounts';
import { codeMatches, generateCode, hashCode } from './codes.js';
import type { Mailer } from './mailer.js';

export type VerificationPurpose = VerificationTable['purpose'];
export type VerificationRow = Selectable<VerificationTable>;

export interface VerificationsOptions {
  db: Kysely<Database>;
  mailer: Mailer;
  /** Keys the code hashes (the session secret). */
  secret: string;
}

const MAIL_SUBJECT: Record<VerificationPurpose, string> = {
  signup: 'Your Showroom verification code',
  'email-change': 'Confirm your new Showroom e-mail address',
};

function mailText(purpose: VerificationPurpose, code: string): string {
  const minutes = VERIFICATION_CODE_TTL_MS / 60_000;
  const what =
    purpose === 'signup' ? 'finish creating your account' : 'confirm this e-mail address';
  return (
    `Your Showroom code is ${code}.\n\n` +
    `Enter it to ${what}. It is valid for ${minutes} minutes. ` +
    `If you did not ask for it, ignore this message.\n`
  );
}

/**
 * E-mailed six-digit codes (decision 008): valid ten minutes, locked after five wrong tries, a
 * new one at most once a minute. One pending code per session and purpose; only its HMAC is kept.
 */
export function createVerifications({ db, mailer, secret }: VerificationsOptions) {
  function toPending(row: VerificationRow): PendingVerification {
    return {
      purpose: row.purpose,
      email: row.email,
      expiresAt: row.expires_at,
      resendAfter: row.resend_after,
      attemptsLeft: Math.max(0, VERIFICATION_MAX_ATTEMPTS - Number(row.attempts)),
      delivery: mailer.delivery,
    };
  }

  async function find(sessionId: string, purpose: VerificationPurpose) {
    return db
      .selectFrom('verifications')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
  }

  async function issue(
    sessionId: string,
    purpose: VerificationPurpose,
    fields: { email: string; name?: string | null; passwordHash?: string | null },
    now: Date,
  ): Promise<PendingVerification> {
    const code = generateCode();
    const row: VerificationRow = {
      session_id: sessionId,
      purpose,
      email: fields.email,
      code_hash: hashCode(secret, sessionId, purpose, code),
      attempts: 0,
      expires_at: new Date(now.getTime() + VERIFICATION_CODE_TTL_MS).toISOString(),
      resend_after: new Date(now.getTime() + VERIFICATION_RESEND_INTERVAL_MS).toISOString(),
      name: fields.name ?? null,
      password_hash: fields.passwordHash ?? null,
      created_at: now.toISOString(),
    };
    await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('verifications')
        .where('session_id', '=', sessionId)
        .where('purpose', '=', purpose)
        .execute();
      await trx.insertInto('verifications').values(row).execute();
    });
    await mailer.send(
      sessionId,
      { to: fields.email, subject: MAIL_SUBJECT[purpose], text: mailText(purpose, code) },
      now,
    );
    return toPending(row);
  }

  return {
    find,
    toPending,

    /** A new code for a new sign-up or e-mail change (replaces a pending one). */
    start: issue,

    /** Another code for the pending one, at most once a minute (429 with Retry-After). */
    async resend(sessionId: string, purpose: VerificationPurpose, now: Date) {
      const row = await find(sessionId, purpose);
      if (!row) throw noPending(purpose);
      const wait = Date.parse(row.resend_after) - now.getTime();
      if (wait > 0) {
        throw new RetryLaterError(
          Math.ceil(wait / 1000),
          'A new code can be sent once a minute: try again shortly',
        );
      }
      return issue(
        sessionId,
        purpose,
        { email: row.email, name: row.name, passwordHash: row.password_hash },
        now,
      );
    },

    /**
     * Checks a code: the pending row when it matches (the caller consumes it in its own
     * transaction); otherwise a 4xx that says why, a wrong try counted.
     */
    async check(sessionId: string, purpose: VerificationPurpose, code: string, now: Date) {
      const row = await find(sessionId, purpose);
      if (!row) throw noPending(purpose);
      if (Number(row.attempts) >= VERIFICATION_MAX_ATTEMPTS) {
        throw new ApiError(423, 'CODE_LOCKED', 'Too many wrong codes: ask for a new code', 'code');
      }
      if (Date.parse(row.expires_at) <= now.getTime()) {
        throw new ApiError(
          410,
          'CODE_EXPIRED',
          'This code has expired: ask for a new code',
          'code',
        );
      }
      if (!codeMatches(row.code_hash, hashCode(secret, sessionId, purpose, code))) {
        const attempts = Number(row.attempts) + 1;
        await db
          .updateTable('verifications')
          .set({ attempts })
          .where('session_id', '=', sessionId)
          .where('purpose', '=', purpose)
          .execute();
        const left = VERIFICATION_MAX_ATTEMPTS - attempts;
        if (left <= 0) {
          throw new ApiError(
            423,
            'CODE_LOCKED',
            'Too many wrong codes: ask for a new code',
            'code',
          );
        }
        throw new ApiError(
          400,
          'CODE_INVALID',
          `That code is not right: ${left} ${left === 1 ? 'try' : 'tries'} left`,
          'code',
        );
      }
      return row;
    },
  };
}

export type Verifications = ReturnType<typeof createVerifications>;

function noPending(purpose: VerificationPurpose): ApiError {
  const what = purpose === 'signup' ? 'sign-up' : 'e-mail change';
  return new ApiError(404, 'NO_PENDING_VERIFICATION', `No ${what} is waiting for a code`);
}

/** A matched code is used once: removed in the transaction that acts on it. */
export async function consumeVerification(
  trx: Transaction<Database>,
  sessionId: string,
  purpose: VerificationPurpose,
): Promise<void> {
  await trx
    .deleteFrom('verifications')
    .where('session_id', '=', sessionId)
    .where('purpose', '=', purpose)
    .execute();
}

/** The answers of a route that checks a code, besides its 200. */
export const CODE_CHECK_ERRORS = {
  400: errorRef,
  404: errorRef,
  409: errorRef,
  410: errorRef,
  423: errorRef,
  429: errorRef,
} as const;
