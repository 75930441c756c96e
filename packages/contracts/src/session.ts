import { Type, type Static } from 'typebox';
import { LOYALTY_TIERS } from './accounts.js';

/**
 * The persona a session shops as: a signed-in account (list `account`) or the bound sample
 * shopper, with their loyalty standing. The same record is the monitoring user, the flag
 * subject, the checkout pre-fill and the api's span attributes (decision 008).
 */
export const BoundShopperSchema = Type.Object({
  id: Type.String({ description: 'Account id (acc_…) or sample shopper id' }),
  list: Type.Union([
    Type.Literal('standard'),
    Type.Literal('loyalty'),
    Type.Literal('demo'),
    Type.Literal('account'),
  ]),
  name: Type.String(),
  email: Type.String(),
  team: Type.String(),
  useDiscount: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'null only for the fixed demo user',
  }),
  useNewCheckoutFlow: Type.Boolean(),
  loyaltyMember: Type.Boolean(),
  tier: Type.Union([Type.Enum(LOYALTY_TIERS), Type.Literal('none')], {
    description: "The loyalty tier; 'none' outside the programme",
  }),
});

export const SessionViewSchema = Type.Object(
  {
    shopper: Type.Union([BoundShopperSchema, Type.Null()], {
      description: 'The sample shopper this session is bound to; null when anonymous',
    }),
    account: Type.Union(
      [Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() }), Type.Null()],
      { description: 'The signed-in account; null for a session without one' },
    ),
    discountRate: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "Merchandise discount decided by the server from the shopper's record",
    }),
    cart: Type.Object({
      itemCount: Type.Integer({ minimum: 0 }),
      lineCount: Type.Integer({ minimum: 0 }),
    }),
  },
  { $id: 'SessionView' },
);
export type SessionView = Static<typeof SessionViewSchema>;

export type BoundShopper = Static<typeof BoundShopperSchema>;

export const BindShopperBodySchema = Type.Object({
  shopperId: Type.String({
    pattern: '^[A-Za-z0-9-]{1,64}$',
    description: 'A sample shopper id from the standard or loyalty list',
  }),
});
