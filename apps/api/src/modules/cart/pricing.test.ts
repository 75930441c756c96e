import { describe, expect, it } from 'vitest';
import {
  discountRateFor,
  FREE_SHIPPING_THRESHOLD_CENTS,
  priceCart,
  SHIPPING_RATES_CENTS,
  SHOPPER_DISCOUNT_RATE,
  type PricingOptions,
} from './pricing.js';

const noDiscount: PricingOptions = {
  country: 'US',
  discountRate: 0,
  freeShippingThresholdCents: 100_000,
};

describe('priceCart', () => {
  it('multiplies line totals and adds them up with shipping for the country', () => {
    const cart = priceCart(
      [
        { id: 'a', unitPriceCents: 12_345, quantity: 2 },
        { id: 'b', unitPriceCents: 999, quantity: 3 },
      ],
      { ...noDiscount, country: 'DE' },
    );
    expect(cart.lines.map((line) => [line.id, line.lineTotalCents])).toEqual([
      ['a', 24_690],
      ['b', 2_997],
    ]);
    expect(cart).toMatchObject({
      itemCount: 5,
      subtotalCents: 27_687,
      discountCents: 0,
      shippingCents: SHIPPING_RATES_CENTS.DE,
      totalCents: 27_687 + SHIPPING_RATES_CENTS.DE,
      freeShipping: false,
    });
  });

  it('charges each country its own shipping rate', () => {
    const line = [{ unitPriceCents: 1_000, quantity: 1 }];
    expect(priceCart(line, { ...noDiscount, country: 'US' }).shippingCents).toBe(2_500);
    expect(priceCart(line, { ...noDiscount, country: 'JP' }).shippingCents).toBe(7_500);
    expect(priceCart(line, { ...noDiscount, country: 'AU' }).shippingCents).toBe(8_500);
    expect(new Set(Object.values(SHIPPING_RATES_CENTS)).size).toBeGreaterThan(3);
  });

  it('takes the discount off merchandise only and rounds half up to the cent', () => {
    const cart = priceCart([{ unitPriceCents: 12_345, quantity: 1 }], {
      ...noDiscount,
      discountRate: SHOPPER_DISCOUNT_RATE,
    });
    // 10 % of 123.45 is 12.345 → 12.35 (floating point would give 12.34 or 12.35 by luck).
    expect(cart.discountCents).toBe(1_235);
    expect(cart.shippingCents).toBe(SHIPPING_RATES_CENTS.US);
    expect(cart.totalCents).toBe(12_345 - 1_235 + SHIPPING_RATES_CENTS.US);
  });

  it('ships free from the threshold on, measured after the discount', () => {
    const threshold = 50_000;
    const at = priceCart([{ unitPriceCents: 50_000, quantity: 1 }], {
      ...noDiscount,
      freeShippingThresholdCents: threshold,
    });
    expect(at).toMatchObject({ shippingCents: 0, freeShipping: true, totalCents: 50_000 });

    const below = priceCart([{ unitPriceCents: 49_999, quantity: 1 }], {
      ...noDiscount,
      freeShippingThresholdCents: threshold,
    });
    expect(below).toMatchObject({ shippingCents: 2_500, freeShipping: false });

    const discountedBelow = priceCart([{ unitPriceCents: 50_000, quantity: 1 }], {
      ...noDiscount,
      discountRate: 0.1,
      freeShippingThresholdCents: threshold,
    });
    expect(discountedBelow).toMatchObject({ discountCents: 5_000, shippingCents: 2_500 });
  });

  it('takes the threshold as an input, so a flag can move it', () => {
    const lines = [{ unitPriceCents: 80_000, quantity: 1 }];
    expect(
      priceCart(lines, { ...noDiscount, freeShippingThresholdCents: FREE_SHIPPING_THRESHOLD_CENTS })
        .shippingCents,
    ).toBe(2_500);
    expect(
      priceCart(lines, { ...noDiscount, freeShippingThresholdCents: 75_000 }).shippingCents,
    ).toBe(0);
  });

  it('prices an empty cart at zero, shipping included', () => {
    expect(priceCart([], { ...noDiscount, discountRate: 0.1 })).toEqual({
      lines: [],
      itemCount: 0,
      subtotalCents: 0,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 0,
      freeShipping: false,
    });
  });

  it('rejects non-integer prices, bad quantities and rates out of range', () => {
    expect(() => priceCart([{ unitPriceCents: 10.5, quantity: 1 }], noDiscount)).toThrow(
      RangeError,
    );
    expect(() => priceCart([{ unitPriceCents: 100, quantity: 0 }], noDiscount)).toThrow(RangeError);
    expect(() => priceCart([], { ...noDiscount, discountRate: 1.5 })).toThrow(RangeError);
    expect(() => priceCart([], { ...noDiscount, discountRate: Number.NaN })).toThrow(RangeError);
  });
});

describe('discountRateFor', () => {
  it('gives the discount only to a shopper whose record says so', () => {
    expect(discountRateFor({ useDiscount: true })).toBe(SHOPPER_DISCOUNT_RATE);
    expect(discountRateFor({ useDiscount: false })).toBe(0);
    expect(discountRateFor(null)).toBe(0);
  });
});
