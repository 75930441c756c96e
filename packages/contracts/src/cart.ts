import { Type, type Static } from 'typebox';
import { MAX_LINE_QUANTITY, MIN_LINE_QUANTITY } from './cart-limits.js';
import { randomIdPattern } from './random-id.js';
import { DEFAULT_SHIPPING_COUNTRY, SHIPPING_COUNTRIES } from './shipping.js';

export const EDITIONS = ['standard', 'special'] as const;
export type Edition = (typeof EDITIONS)[number];

export const EditionSchema = Type.Enum(EDITIONS, {
  description: 'standard, or the special edition (its own price and stock)',
});

export const CountrySchema = Type.Enum(SHIPPING_COUNTRIES, {
  description: 'Shipping destination, ISO 3166-1 alpha-2',
});

export const CartQuerySchema = Type.Object({
  country: Type.Optional(
    Type.Enum(SHIPPING_COUNTRIES, {
      default: DEFAULT_SHIPPING_COUNTRY,
      description: 'Shipping destination for the estimate',
    }),
  ),
});

const productId = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Product id' });
const quantity = Type.Integer({ minimum: MIN_LINE_QUANTITY, maximum: MAX_LINE_QUANTITY });

export const AddCartItemBodySchema = Type.Object({
  productId,
  edition: EditionSchema,
  quantity: Type.Optional({ ...quantity, default: 1 }),
});
export type AddCartItemBody = Static<typeof AddCartItemBodySchema>;

export const BuyNowBodySchema = AddCartItemBodySchema;
export type CartItemInput = Static<typeof AddCartItemBodySchema>;

export const UpdateCartItemBodySchema = Type.Object({ quantity });

export const CartLineParamsSchema = Type.Object({
  lineId: Type.String({ pattern: randomIdPattern('line'), description: 'Cart line id' }),
});

export const CartLineSchema = Type.Object({
  id: Type.String(),
  productId: Type.Integer(),
  edition: EditionSchema,
  name: Type.String(),
  department: Type.String(),
  unitPriceCents: Type.Integer({ minimum: 0, description: 'Current price, integer cents' }),
  quantity: Type.Integer({ minimum: 1 }),
  lineTotalCents: Type.Integer({ minimum: 0 }),
  stock: Type.Integer({ minimum: 0, description: 'Units of this edition in stock now' }),
  inStock: Type.Boolean({ description: 'Whether the stock covers this line right now' }),
});

export const CartSchema = Type.Object(
  {
    lines: Type.Array(CartLineSchema),
    itemCount: Type.Integer({ minimum: 0 }),
    currency: Type.String(),
    country: CountrySchema,
    subtotalCents: Type.Integer({ minimum: 0 }),
    discountRate: Type.Number({ minimum: 0, maximum: 1 }),
    discountCents: Type.Integer({ minimum: 0 }),
    shippingCents: Type.Integer({ minimum: 0 }),
    freeShipping: Type.Boolean(),
    freeShippingThresholdCents: Type.Integer({ minimum: 0 }),
    totalCents: Type.Integer({ minimum: 0 }),
  },
  { $id: 'Cart' },
);
export type Cart = Static<typeof CartSchema>;
export type CartLine = Static<typeof CartLineSchema>;
