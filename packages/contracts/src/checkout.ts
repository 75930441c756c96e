import { Type, type Static } from 'typebox';
import { CheckoutFlowSchema, InstantPayVariantSchema, ShippingAddressSchema } from './orders.js';
import { cardFields, PAYMENT_METHOD_ID_PATTERN } from './payments.js';

export const CheckoutCardSchema = Type.Object({
  ...cardFields,
  saveCard: Type.Optional(Type.Boolean({ description: 'Keep the card as a saved payment method' })),
});

/**
 * `type: 'card'` needs `card`; `type: 'saved'` needs `paymentMethodId`. One object rather than
 * a union so that a missing part is reported by its own field name.
 */
export const PaymentInputSchema = Type.Object({
  type: Type.Union([Type.Literal('card'), Type.Literal('saved')]),
  card: Type.Optional(CheckoutCardSchema),
  paymentMethodId: Type.Optional(
    Type.String({ pattern: PAYMENT_METHOD_ID_PATTERN, description: 'A saved payment method id' }),
  ),
});

export type PaymentInput = Static<typeof PaymentInputSchema>;

export const PlaceOrderBodySchema = Type.Object({
  shipping: ShippingAddressSchema,
  payment: PaymentInputSchema,
  instantPayVariant: Type.Optional(InstantPayVariantSchema),
  checkoutFlow: Type.Optional(CheckoutFlowSchema),
});
export type PlaceOrderBody = Static<typeof PlaceOrderBodySchema>;

/** A printable-ASCII key such as a UUID, chosen by the client per order attempt. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export const PlaceOrderHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      pattern: '^[\\x21-\\x7E]+$',
      description:
        'Optional. A retry with the same key from the same session answers the first result ' +
        'instead of placing a second order; the same key with a different body answers 422.',
    }),
  ),
  'x-demo-error': Type.Optional(
    Type.Literal('buy-now', {
      description: 'Buy-now demo mode with shouldError: the order attempt fails with a 500',
    }),
  ),
});
