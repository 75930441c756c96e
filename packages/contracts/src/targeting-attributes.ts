import type { FlagSubject } from './flag-subject.js';

// A module of its own (not in flag-subject.ts): the operator page imports it, the flag provider's
// chunk imports the subject, and the two then share no chunk.

/** Attribute names a targeting rule may use (the operator page offers these). */
export const TARGETING_ATTRIBUTES = [
  'team',
  'tier',
  'loyaltyMember',
  'useDiscount',
  'useNewCheckoutFlow',
  'browser',
  'user_id',
  'user_email',
  'user_name',
  'checkoutFlow',
] as const satisfies readonly (keyof FlagSubject['attributes'])[];
