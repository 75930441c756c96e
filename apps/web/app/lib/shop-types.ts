/**
 * Shapes of the shop api's session, cart, checkout, order and payment answers (the api's
 * OpenAPI document at /docs is the contract; apps/api/src/modules/*\/schemas.ts define it).
 */
import type { Edition } from './catalog';

export interface BoundShopper {
  id: string;
  list: 'standard' | 'loyalty' | 'demo';
  name: string;
  email: string;
  team: string;
  useDiscount: boolean;
  useNewCheckoutFlow: boolean;
}

export interface SessionView {
  shopper: BoundShopper | null;
  discountRate: number;
  cart: { itemCount: number; lineCount: number };
}

export interface CartLine {
  id: string;
  productId: number;
  edition: Edition;
  name: string;
  department: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  stock: number;
  inStock: boolean;
}

export interface Cart {
  lines: CartLine[];
  itemCount: number;
  currency: string;
  country: string;
  subtotalCents: number;
  discountRate: number;
  discountCents: number;
  shippingCents: number;
  freeShipping: boolean;
  freeShippingThresholdCents: number;
  totalCents: number;
}

export interface CartItemInput {
  productId: number;
  edition: Edition;
  quantity: number;
}

export interface ShippingAddress {
  name: string;
  email: string;
  address1: string;
  address2?: string;
  city: string;
  postalCode: string;
  country: string;
}

/** A card as typed by the shopper; never stored or logged by the shop. */
export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export type PaymentInput =
  | { type: 'card'; card: CardInput & { saveCard?: boolean } }
  | { type: 'saved'; paymentMethodId: string };

export type InstantPayVariant = 'a' | 'b' | 'c';
export type CheckoutFlow = 'classic' | 'single-page';

export interface PlaceOrderRequest {
  shipping: ShippingAddress;
  payment: PaymentInput;
  instantPayVariant?: InstantPayVariant;
  checkoutFlow?: CheckoutFlow;
}

export interface OrderLine {
  productId: number;
  edition: Edition;
  name: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
}

export interface Order {
  id: string;
  status: 'paid';
  createdAt: string;
  currency: string;
  lines: OrderLine[];
  itemCount: number;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  shipping: ShippingAddress;
  payment: { brand: string; last4: string };
  instantPayVariant: InstantPayVariant | null;
  checkoutFlow: CheckoutFlow | null;
}

export interface PaymentMethod {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: string;
}
