import type { BrowserFamily } from '@showroom/contracts/browser-family';
import { buildFlagSubject } from '@showroom/contracts/flag-subject';
import type { EvaluateFlagValue } from '../flags/evaluate.js';
import type { BoundShopper } from '../session/repository.js';
import { FREE_SHIPPING_THRESHOLD_CENTS } from './pricing.js';

/** The flag (apps/api/flags/checkout.json) that chooses the free-shipping threshold. */
export const FREE_SHIPPING_THRESHOLD_FLAG = 'free_shipping_threshold_cents';

/** The free-shipping threshold in cents for a session's bound shopper. */
export type FreeShippingThreshold = (
  shopper: BoundShopper | null,
  browser: BrowserFamily,
) => Promise<number>;

/**
 * The threshold from the flag service for the session's bound shopper, evaluated for the same
 * subject the browser sends (the contract's buildFlagSubject). An anonymous session,
 * no flag service, or a flag that assigns nothing usable (missing, disabled, not a
 * non-negative whole number of cents) gets the shop's constant.
 */
export function createFreeShippingThreshold(evaluate?: EvaluateFlagValue): FreeShippingThreshold {
  return async (shopper, browser) => {
    if (!shopper || !evaluate) return FREE_SHIPPING_THRESHOLD_CENTS;
    const value = await evaluate(FREE_SHIPPING_THRESHOLD_FLAG, buildFlagSubject(shopper, browser));
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? value
      : FREE_SHIPPING_THRESHOLD_CENTS;
  };
}
