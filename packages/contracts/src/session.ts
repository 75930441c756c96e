import { Type, type Static } from 'typebox';

export const BoundShopperSchema = Type.Object({
  id: Type.String(),
  list: Type.Union([Type.Literal('standard'), Type.Literal('loyalty'), Type.Literal('demo')]),
  name: Type.String(),
  email: Type.String(),
  team: Type.String(),
  useDiscount: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'null only for the fixed demo user',
  }),
  useNewCheckoutFlow: Type.Boolean(),
});

export const SessionViewSchema = Type.Object(
  {
    shopper: Type.Union([BoundShopperSchema, Type.Null()], {
      description: 'The sample shopper this session is bound to; null when anonymous',
    }),
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
