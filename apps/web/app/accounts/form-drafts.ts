import type { KeyValueStorage } from '../startup/storage-keys';
import { PROFILE_FIELDS } from './account-forms';

/**
 * Drafts of the account forms, kept in session storage so a reload — or a trip to the outbox
 * for a code — does not lose what the shopper typed. A draft holds only the fields its form
 * names, and never a secret: passwords, card numbers, security codes and e-mailed codes stay
 * in memory (they would outlive the tab's use of them in storage).
 */

/** Session-storage keys of drafts: `showroom_draft:<form>`. */
export const DRAFT_PREFIX = 'showroom_draft:';

/** Field names never written to a draft, whatever a form lists. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password',
  'number',
  'cardNumber',
  'cvc',
  'cardCvc',
  'code',
]);

export type Draft<F extends string> = Partial<Record<F, string>>;

/**
 * Each form's draft name and fields. The sign-up draft lives until the code is verified, so
 * "start again" from /signup-verify finds the name and address typed.
 */
export const DRAFTS = {
  signUp: { form: 'signup', fields: ['name', 'email'] },
  signIn: { form: 'signin', fields: ['email'] },
  profile: { form: 'profile-edit', fields: PROFILE_FIELDS },
  loyalty: { form: 'loyalty-signup', fields: ['birthday'] },
} as const satisfies Record<string, { form: string; fields: readonly string[] }>;

export const draftKey = (form: string) => `${DRAFT_PREFIX}${form}`;

/** The draft's fields out of its stored JSON: listed, non-secret string fields only. */
export function parseDraft<F extends string>(
  raw: string | null,
  fields: readonly F[],
): Draft<F> | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const draft: Draft<F> = {};
  for (const field of fields) {
    const entry = (value as Record<string, unknown>)[field];
    if (!SECRET_FIELDS.has(field) && typeof entry === 'string') draft[field] = entry;
  }
  return draft;
}

/** The JSON a draft is stored as: the listed, non-secret fields of `values`. */
export function serialiseDraft<F extends string>(
  values: Partial<Record<string, unknown>>,
  fields: readonly F[],
): string {
  const kept: Record<string, string> = {};
  for (const field of fields) {
    const entry = values[field];
    if (!SECRET_FIELDS.has(field) && typeof entry === 'string') kept[field] = entry;
  }
  return JSON.stringify(kept);
}

/**
 * Drafts in one storage. A storage that refuses (private mode, quota) is replaced by memory
 * for the rest of the page load, so typing never fails because a draft could not be kept.
 */
export function createDraftStore(storage: KeyValueStorage | null) {
  const memory = new Map<string, string>();
  let usable = storage !== null;
  const read = (key: string): string | null => {
    if (usable && storage) {
      try {
        return storage.getItem(key);
      } catch {
        usable = false;
      }
    }
    return memory.get(key) ?? null;
  };
  const write = (key: string, value: string | null) => {
    if (usable && storage) {
      try {
        if (value === null) storage.removeItem(key);
        else storage.setItem(key, value);
        return;
      } catch {
        usable = false;
      }
    }
    if (value === null) memory.delete(key);
    else memory.set(key, value);
  };
  return {
    /** The stored JSON of a form's draft (stable between writes, for React to compare). */
    raw: (form: string) => read(draftKey(form)),
    read: <F extends string>(form: string, fields: readonly F[]) =>
      parseDraft(read(draftKey(form)), fields),
    write: <F extends string>(
      form: string,
      fields: readonly F[],
      values: Partial<Record<string, unknown>>,
    ) => write(draftKey(form), serialiseDraft(values, fields)),
    clear: (form: string) => write(draftKey(form), null),
  };
}

export type DraftStore = ReturnType<typeof createDraftStore>;
