import { INSTANT_PAY_B_BELOW, INSTANT_PAY_C_ABOVE } from '@showroom/contracts/experiment-constants';
import { describe, expect, it } from 'vitest';
import * as keys from './storage-keys';
import * as builds from '../builds/build-rules';

describe('storage keys and constants', () => {
  it('R-3.8 identity keys are the spec names', () => {
    expect(Object.values(keys.IDENTITY_KEYS)).toEqual([
      'user_id',
      'user_name',
      'user_email',
      'user_team',
      'user_use_discount',
      'user_use_new_checkout_flow',
    ]);
  });

  it('R-3.1 R-3.2 R-3.9 flag, demo-mode and other keys are the spec names', () => {
    expect(Object.values(keys.FLAG_KEYS)).toEqual([
      'newCheckoutFlow',
      'checkoutCountrySelector',
      'showLoyaltyProgram',
      'showPayments',
      'showLoAF',
    ]);
    expect(Object.values(keys.DEMO_MODE_KEYS)).toEqual(['buyNowButton', 'newProductPhotos']);
    expect([keys.IS_BETA_KEY, keys.ERROR_SHA_KEY]).toEqual(['isBeta', 'errorSHA']);
  });

  it('R-3.9 every storage key is distinct', () => {
    const all = [
      ...Object.values(keys.IDENTITY_KEYS),
      ...Object.values(keys.FLAG_KEYS),
      ...Object.values(keys.DEMO_MODE_KEYS),
      keys.IS_BETA_KEY,
      keys.ERROR_SHA_KEY,
      keys.RUM_CONFIG_KEY_KEY,
      keys.RUM_CONFIG_HOST_KEY,
      keys.BACKEND_URL_OVERRIDE_KEY,
      keys.INSTANT_PAY_VARIANT_KEY,
      builds.BUILD_RELOADS_KEY,
    ];
    expect(new Set(all).size).toBe(all.length);
  });

  it('R-9.1 R-9.2 R-9.3 R-4.7 spec constants', () => {
    expect(keys.ANONYMOUS_CHANCE).toBe(0.2);
    expect(keys.DAY_SLICE_COUNT).toBe(7);
    expect([keys.PROVIDER_READY_TIMEOUT_MS, keys.PROVIDER_READY_POLL_MS]).toEqual([10_000, 100]);
    // instant_pay's thresholds are the contract's, so experiment results read the same split.
    expect([INSTANT_PAY_B_BELOW, INSTANT_PAY_C_ABOVE]).toEqual([0.33, 0.66]);
    expect([builds.MANIFEST_PREFETCH_DELAY_MS, builds.RELOAD_THROTTLE_MS]).toEqual([1_000, 10_000]);
  });
});
