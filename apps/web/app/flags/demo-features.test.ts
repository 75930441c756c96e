import { describe, expect, it } from 'vitest';
import { DEMO_FEATURES, effectiveFeatureValue } from './demo-features';

describe('effective value of a demo feature', () => {
  it('R-3.1: a stored override wins over the flag service', () => {
    expect(effectiveFeatureValue(false, true)).toEqual({ value: false, source: 'override' });
    expect(effectiveFeatureValue(true, false)).toEqual({ value: true, source: 'override' });
  });

  it("uses the flag service's value when nothing is stored", () => {
    expect(effectiveFeatureValue(null, true)).toEqual({ value: true, source: 'flag' });
    expect(effectiveFeatureValue(null, false)).toEqual({ value: false, source: 'flag' });
  });

  it('R-3.1: defaults to false without an override or a flag value', () => {
    expect(effectiveFeatureValue(null, undefined)).toEqual({ value: false, source: 'default' });
    expect(effectiveFeatureValue(null, null)).toEqual({ value: false, source: 'default' });
  });

  it('covers the five local-storage flags of docs/requirements.md §3', () => {
    expect(DEMO_FEATURES.map((feature) => feature.storageKey)).toEqual([
      'newCheckoutFlow',
      'checkoutCountrySelector',
      'showLoyaltyProgram',
      'showPayments',
      'showLoAF',
    ]);
  });
});
