import { Type, type Static } from 'typebox';
import { ShippingAddressSchema } from './orders.js';
import { randomIdPattern } from './random-id.js';

/**
 * Accounts, the profile, e-mail codes and the outbox (docs/requirements.md, decision 008).
 * The rules the sign-up form shows and the api enforces are named here once.
 */

/** Passwords: at least this many characters… */
export const PASSWORD_MIN_LENGTH = 10;
/** …and at most this many (scrypt reads every byte). */
export const PASSWORD_MAX_LENGTH = 128;
/** The rule as the sign-up form shows it next to the field. */
export const PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters.`;

/** E-mailed codes: six digits… */
export const VERIFICATION_CODE_LENGTH = 6;
/** …valid for ten minutes… */
export const VERIFICATION_CODE_TTL_MS = 10 * 60 * 1000;
/** …locked after five wrong tries… */
export const VERIFICATION_MAX_ATTEMPTS = 5;
/** …and a new one at most once a minute. */
export const VERIFICATION_RESEND_INTERVAL_MS = 60 * 1000;

/** Sign-up, sign-in and verification answer 429 after this many requests a minute per client. */
export const AUTH_RATE_LIMIT_PER_MINUTE = 10;

export const ACCOUNT_ID_PATTERN = randomIdPattern('acc');
export const OUTBOX_MESSAGE_ID_PATTERN = randomIdPattern('msg');

const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
const email = (description: string) =>
  Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN, description });
const personName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description: 'Full name',
});
const password = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description: PASSWORD_RULE,
});

export const SignUpBodySchema = Type.Object({
  name: personName,
  email: email('E-mail address; the code is sent there'),
  password,
});
export type SignUpBody = Static<typeof SignUpBodySchema>;

/** What sign-up and a resend answer: where the code went and when another may be asked for. */
export const PendingVerificationSchema = Type.Object(
  {
    purpose: Type.Union([Type.Literal('signup'), Type.Literal('email-change')]),
    email: Type.String(),
    expiresAt: Type.String({ description: 'The code is refused after this time' }),
    resendAfter: Type.String({ description: 'A new code may be asked for from this time' }),
    attemptsLeft: Type.Integer({ minimum: 0 }),
    delivery: Type.Union([Type.Literal('outbox'), Type.Literal('smtp')], {
      description: 'outbox: read it on /outbox; smtp: sent by e-mail',
    }),
  },
  { $id: 'PendingVerification' },
);
export type PendingVerification = Static<typeof PendingVerificationSchema>;

export const VerifyCodeBodySchema = Type.Object({
  code: Type.String({
    pattern: `^\\d{${VERIFICATION_CODE_LENGTH}}$`,
    description: `The ${VERIFICATION_CODE_LENGTH}-digit code from the e-mail`,
  }),
});

export const ResendCodeBodySchema = Type.Object({
  purpose: Type.Union([Type.Literal('signup'), Type.Literal('email-change')]),
});

export const SignInBodySchema = Type.Object({
  email: email('The account e-mail address'),
  password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
});
export type SignInBody = Static<typeof SignInBodySchema>;

/** A shipping address kept on the profile: the order form's fields without name and e-mail. */
export const ProfileAddressSchema = Type.Object({
  address1: ShippingAddressSchema.properties.address1,
  address2: ShippingAddressSchema.properties.address2,
  city: ShippingAddressSchema.properties.city,
  postalCode: ShippingAddressSchema.properties.postalCode,
  country: ShippingAddressSchema.properties.country,
});
export type ProfileAddress = Static<typeof ProfileAddressSchema>;

export const UpdateProfileBodySchema = Type.Object({
  name: Type.Optional(personName),
  email: Type.Optional(email('A new address is confirmed by a code before it is used')),
  address: Type.Optional(Type.Union([ProfileAddressSchema, Type.Null()])),
});
export type UpdateProfileBody = Static<typeof UpdateProfileBodySchema>;

export const LOYALTY_TIERS = ['bronze', 'silver', 'gold'] as const;
export type LoyaltyTier = (typeof LOYALTY_TIERS)[number];
/** A shopper outside the programme. */
export type PersonaTier = LoyaltyTier | 'none';

/** Points from which each tier starts. */
export const LOYALTY_TIER_THRESHOLDS: Readonly<Record<LoyaltyTier, number>> = {
  bronze: 0,
  silver: 500,
  gold: 2000,
};

/** The tier a member with these points is in. */
export function loyaltyTierFor(points: number): LoyaltyTier {
  if (points >= LOYALTY_TIER_THRESHOLDS.gold) return 'gold';
  if (points >= LOYALTY_TIER_THRESHOLDS.silver) return 'silver';
  return 'bronze';
}

/** The next tier and the points still missing, or null at the top. */
export function nextLoyaltyTier(points: number): { tier: LoyaltyTier; pointsToGo: number } | null {
  const current = loyaltyTierFor(points);
  const next = LOYALTY_TIERS[LOYALTY_TIERS.indexOf(current) + 1];
  return next ? { tier: next, pointsToGo: LOYALTY_TIER_THRESHOLDS[next] - points } : null;
}

/** Shoppers invited from the loyalty list start with this many points. */
export const LOYALTY_WELCOME_POINTS = 100;

/** A member earns one point per whole currency unit of an order's total. */
export function loyaltyPointsFor(totalCents: number): number {
  return Math.max(0, Math.floor(totalCents / 100));
}

export const JoinLoyaltyBodySchema = Type.Object({
  consent: Type.Literal(true, {
    description: 'The shopper agrees to the programme terms; anything but true is refused',
  }),
  birthday: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: 'Optional, YYYY-MM-DD, for a birthday bonus',
    }),
  ),
});
export type JoinLoyaltyBody = Static<typeof JoinLoyaltyBodySchema>;

export const LoyaltyHistoryEntrySchema = Type.Object({
  id: Type.String(),
  points: Type.Integer(),
  reason: Type.Union([Type.Literal('order'), Type.Literal('welcome')]),
  orderId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});
export type LoyaltyHistoryEntry = Static<typeof LoyaltyHistoryEntrySchema>;

export const LoyaltyTierSchema = Type.Enum(LOYALTY_TIERS);

export const LoyaltyMembershipSchema = Type.Object(
  {
    id: Type.String(),
    tier: LoyaltyTierSchema,
    points: Type.Integer({ minimum: 0 }),
    next: Type.Union([
      Type.Object({ tier: LoyaltyTierSchema, pointsToGo: Type.Integer({ minimum: 1 }) }),
      Type.Null(),
    ]),
    birthday: Type.Union([Type.String(), Type.Null()]),
    joinedAt: Type.String(),
    history: Type.Array(LoyaltyHistoryEntrySchema, { description: 'Newest first' }),
  },
  { $id: 'LoyaltyMembership' },
);
export type LoyaltyMembership = Static<typeof LoyaltyMembershipSchema>;

export const LoyaltyStatusSchema = Type.Object({
  membership: Type.Union([LoyaltyMembershipSchema, Type.Null()]),
  invited: Type.Boolean({
    description: 'Not a member yet and from the loyalty shopper list: invited first',
  }),
});
export type LoyaltyStatus = Static<typeof LoyaltyStatusSchema>;

export const LOYALTY_MEMBERSHIP_ID_PATTERN = randomIdPattern('lm');

/** The profile: who is shopping (account or sample shopper), where to ship, and their codes. */
export const ProfileViewSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('account'), Type.Literal('sample'), Type.Literal('anonymous')]),
    id: Type.Union([Type.String(), Type.Null()], {
      description: 'Account id, or the sample shopper id; null when anonymous',
    }),
    name: Type.String(),
    email: Type.String(),
    team: Type.String(),
    address: Type.Union([ProfileAddressSchema, Type.Null()]),
    pendingEmail: Type.Union([Type.String(), Type.Null()], {
      description: 'A new e-mail address waiting for its code',
    }),
    tier: Type.Union([LoyaltyTierSchema, Type.Literal('none')]),
    loyaltyMember: Type.Boolean(),
  },
  { $id: 'ProfileView' },
);
export type ProfileView = Static<typeof ProfileViewSchema>;

export const UpdateProfileResultSchema = Type.Object({
  profile: ProfileViewSchema,
  verification: Type.Union([PendingVerificationSchema, Type.Null()], {
    description: 'Set when the e-mail address changed: the code went to the new address',
  }),
});
export type UpdateProfileResult = Static<typeof UpdateProfileResultSchema>;

export const AccountIdParamsSchema = Type.Object({
  id: Type.String({ pattern: ACCOUNT_ID_PATTERN, description: 'Account id' }),
});

export const OutboxMessageSchema = Type.Object(
  {
    id: Type.String(),
    to: Type.String(),
    subject: Type.String(),
    text: Type.String(),
    createdAt: Type.String(),
  },
  { $id: 'OutboxMessage' },
);
export type OutboxMessage = Static<typeof OutboxMessageSchema>;

export const OutboxListSchema = Type.Object({
  messages: Type.Array(OutboxMessageSchema, { description: 'Newest first' }),
  delivery: Type.Union([Type.Literal('outbox'), Type.Literal('smtp')]),
});
export type OutboxList = Static<typeof OutboxListSchema>;

export const OutboxMessageIdParamsSchema = Type.Object({
  id: Type.String({ pattern: OUTBOX_MESSAGE_ID_PATTERN, description: 'Message id' }),
});

export const LoyaltyMembershipIdParamsSchema = Type.Object({
  id: Type.String({ pattern: LOYALTY_MEMBERSHIP_ID_PATTERN, description: 'Membership id' }),
});

/** The six-digit code in a verification mail's text, for the outbox page and tests. */
export function findVerificationCode(text: string): string | null {
  return new RegExp(`\\b(\\d{${VERIFICATION_CODE_LENGTH}})\\b`).exec(text)?.[1] ?? null;
}
