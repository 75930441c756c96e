import { Type, type Static } from 'typebox';
import { CountrySchema, EditionSchema } from './cart.js';
import { randomIdPattern } from './random-id.js';

export const INSTANT_PAY_VARIANTS = ['a', 'b', 'c'] as const;
export const CHECKOUT_FLOWS = ['classic', 'single-page'] as const;

export type InstantPayVariant = (typeof INSTANT_PAY_VARIANTS)[number];
export type CheckoutFlow = (typeof CHECKOUT_FLOWS)[number];

export const InstantPayVariantSchema = Type.Enum(INSTANT_PAY_VARIANTS, {
  description: 'The instant_pay experiment variant the shopper saw on /cart',
});
export const CheckoutFlowSchema = Type.Enum(CHECKOUT_FLOWS, {
  description: 'Which checkout flow placed the order (newCheckoutFlow flag)',
});

const text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });

export const ShippingAddressSchema = Type.Object({
  name: text(100),
  email: Type.String({
    maxLength: 254,
    pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
    description: 'E-mail address for the order confirmation',
  }),
  address1: text(200),
  address2: Type.Optional(Type.String({ maxLength: 200 })),
  city: text(100),
  postalCode: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$' }),
  country: CountrySchema,
});
export type ShippingAddress = Static<typeof ShippingAddressSchema>;

export const OrderLineSchema = Type.Object({
  productId: Type.Integer(),
  edition: EditionSchema,
  name: Type.String(),
  unitPriceCents: Type.Integer({ minimum: 0, description: 'Price at the time of the order' }),
  quantity: Type.Integer({ minimum: 1 }),
  lineTotalCents: Type.Integer({ minimum: 0 }),
});

export const OrderSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Literal('paid'),
    createdAt: Type.String(),
    currency: Type.String(),
    lines: Type.Array(OrderLineSchema),
    itemCount: Type.Integer({ minimum: 1 }),
    subtotalCents: Type.Integer({ minimum: 0 }),
    discountCents: Type.Integer({ minimum: 0 }),
    shippingCents: Type.Integer({ minimum: 0 }),
    totalCents: Type.Integer({ minimum: 0 }),
    shipping: ShippingAddressSchema,
    payment: Type.Object({ brand: Type.String(), last4: Type.String() }),
    instantPayVariant: Type.Union([InstantPayVariantSchema, Type.Null()]),
    checkoutFlow: Type.Union([CheckoutFlowSchema, Type.Null()]),
  },
  { $id: 'Order' },
);
export type Order = Static<typeof OrderSchema>;

export const OrderListSchema = Type.Object({ orders: Type.Array(OrderSchema) });

export const OrderIdParamsSchema = Type.Object({
  id: Type.String({ pattern: randomIdPattern('ord'), description: 'Order id' }),
});

export type OrderLine = Static<typeof OrderLineSchema>;
