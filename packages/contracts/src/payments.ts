import { Type, type Static } from 'typebox';
import { CARD_BRANDS } from './card-brand.js';
import { randomIdPattern } from './random-id.js';

/** Card fields as typed by a shopper. Checked further (Luhn, expiry, CVC) by `validateCard`. */
export const cardFields = {
  number: Type.String({
    minLength: 1,
    maxLength: 32,
    description: 'Card number; spaces and dashes allowed. Never stored or logged.',
  }),
  expMonth: Type.Optional(Type.Integer({ minimum: 1, maximum: 12, description: 'Expiry month' })),
  expYear: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 9999, description: 'Expiry year, 2 or 4 digits' }),
  ),
  expiry: Type.Optional(
    Type.String({ maxLength: 10, description: 'Expiry as MM/YY, instead of expMonth + expYear' }),
  ),
  cvc: Type.String({ maxLength: 8, description: '3 or 4 digits. Never stored or logged.' }),
};

export const SaveCardBodySchema = Type.Object(cardFields);
export type SaveCardBody = Static<typeof SaveCardBodySchema>;

export const PaymentMethodSchema = Type.Object(
  {
    id: Type.String(),
    brand: Type.Enum(CARD_BRANDS, { description: 'visa, mastercard, amex, discover or card' }),
    last4: Type.String({ pattern: '^\\d{4}$' }),
    expMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expYear: Type.Integer(),
    isDefault: Type.Boolean({ description: 'Offered first at checkout' }),
    createdAt: Type.String(),
  },
  { $id: 'PaymentMethod' },
);
export type PaymentMethod = Static<typeof PaymentMethodSchema>;

export const PaymentMethodListSchema = Type.Object({
  paymentMethods: Type.Array(PaymentMethodSchema),
});

export const PAYMENT_METHOD_ID_PATTERN = randomIdPattern('pm');

export const PaymentMethodIdParamsSchema = Type.Object({
  id: Type.String({ pattern: PAYMENT_METHOD_ID_PATTERN, description: 'Payment method id' }),
});
