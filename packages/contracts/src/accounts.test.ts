import { describe, expect, it } from 'vitest';
import {
  findVerificationCode,
  LOYALTY_TIER_THRESHOLDS,
  loyaltyPointsFor,
  loyaltyTierFor,
  nextLoyaltyTier,
} from './accounts.js';

describe('loyalty rules', () => {
  it('earns one point per whole currency unit of the order total', () => {
    expect(loyaltyPointsFor(0)).toBe(0);
    expect(loyaltyPointsFor(99)).toBe(0);
    expect(loyaltyPointsFor(12_345)).toBe(123);
  });

  it('moves through the tiers at their thresholds', () => {
    expect(loyaltyTierFor(0)).toBe('bronze');
    expect(loyaltyTierFor(LOYALTY_TIER_THRESHOLDS.silver - 1)).toBe('bronze');
    expect(loyaltyTierFor(LOYALTY_TIER_THRESHOLDS.silver)).toBe('silver');
    expect(loyaltyTierFor(LOYALTY_TIER_THRESHOLDS.gold)).toBe('gold');
    expect(nextLoyaltyTier(100)).toEqual({
      tier: 'silver',
      pointsToGo: LOYALTY_TIER_THRESHOLDS.silver - 100,
    });
    expect(nextLoyaltyTier(LOYALTY_TIER_THRESHOLDS.gold)).toBeNull();
  });
});

describe('findVerificationCode', () => {
  it('reads the six-digit code out of a mail text', () => {
    expect(findVerificationCode('Your Showroom code is 042917. It expires in 10 minutes.')).toBe(
      '042917',
    );
    expect(findVerificationCode('No code in 12345 or 1234567')).toBeNull();
  });
});
