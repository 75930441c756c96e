import type { ShippingCountry } from '@showroom/contracts/shipping';
/**
 * Cart pricing: pure integer-cent arithmetic over current catalog prices. The api is the only
 * place totals are computed (docs/architecture.md "Data and trust boundaries"); the browser sends
 * ids and quantities, never prices.
 */

/** Every price in the catalog is in US dollar cents. */
export const CURRENCY = 'USD';

/** Merchandise discount for a sample shopper whose record has `useDiscount: true`. */
export const SHOPPER_DISCOUNT_RATE = 0.1;

/**
 * Orders whose merchandise total after discount reaches this get free shipping, unless the
 * `free_shipping_threshold_cents` flag chooses another threshold for the shopper
 * (free-shipping.ts); `priceCart` takes the threshold as an input.
 */
export const FREE_SHIPPING_THRESHOLD_CENTS = 100_000;

/** Flat shipping per order by destination country, in cents. */
export const SHIPPING_RATES_CENTS: Readonly<Record<ShippingCountry, number>> = {
  US: 2_500,
  CA: 3_500,
  GB: 4_500,
  DE: 4_500,
  FR: 4_500,
  NL: 4_500,
  SE: 5_500,
  JP: 7_500,
  AU: 8_500,
};

export interface PricingLine {
  unitPriceCents: number;
  quantity: number;
}

export interface PricingOptions {
  country: ShippingCountry;
  /** Fraction of merchandise taken off, 0 ≤ rate ≤ 1 (e.g. 0.1); resolved to basis points. */
  discountRate: number;
  freeShippingThresholdCents: number;
}

export interface PricedCart<L extends PricingLine> {
  lines: (L & { lineTotalCents: number })[];
  itemCount: number;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  freeShipping: boolean;
}

const BASIS_POINTS = 10_000;

/**
 * Prices a cart: line totals, subtotal, discount (merchandise only, rounded half up to the
 * cent), shipping (free at or above the threshold, nothing for an empty cart) and total.
 */
export function priceCart<L extends PricingLine>(
  lines: readonly L[],
  options: PricingOptions,
): PricedCart<L> {
  if (!(options.discountRate >= 0 && options.discountRate <= 1)) {
    throw new RangeError(`discountRate must be from 0 to 1, got ${options.discountRate}`);
  }
  const priced = lines.map((line) => {
    if (!Number.isSafeInteger(line.unitPriceCents) || line.unitPriceCents < 0) {
      throw new RangeError(
        `unitPriceCents must be a non-negative integer, got ${line.unitPriceCents}`,
      );
    }
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      throw new RangeError(`quantity must be a positive integer, got ${line.quantity}`);
    }
    return { ...line, lineTotalCents: line.unitPriceCents * line.quantity };
  });
  const itemCount = priced.reduce((sum, line) => sum + line.quantity, 0);
  const subtotalCents = priced.reduce((sum, line) => sum + line.lineTotalCents, 0);
  // Integer basis points keep the rounding exact: 0.1 * 12345 is not 1234.5 in floating point.
  const discountBasisPoints = Math.round(options.discountRate * BASIS_POINTS);
  const discountCents = Math.floor(
    (subtotalCents * discountBasisPoints + BASIS_POINTS / 2) / BASIS_POINTS,
  );
  const merchandiseCents = subtotalCents - discountCents;
  const freeShipping = itemCount > 0 && merchandiseCents >= options.freeShippingThresholdCents;
  const shippingCents = itemCount === 0 || freeShipping ? 0 : SHIPPING_RATES_CENTS[options.country];
  return {
    lines: priced,
    itemCount,
    subtotalCents,
    discountCents,
    shippingCents,
    totalCents: merchandiseCents + shippingCents,
    freeShipping,
  };
}

/** The discount a session gets: decided from the bound shopper record, never from the client. */
export function discountRateFor(shopper: { useDiscount: boolean | null } | null): number {
  return shopper?.useDiscount ? SHOPPER_DISCOUNT_RATE : 0;
}
