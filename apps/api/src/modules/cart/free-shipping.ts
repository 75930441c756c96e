import type { EvaluateFlagValue, FlagSubject } from '../flags/evaluate.js';
import type { BoundShopper } from '../session/repository.js';
import { FREE_SHIPPING_THRESHOLD_CENTS } from './pricing.js';

/** The flag (apps/api/flags/checkout.json) that chooses the free-shipping threshold. */
export const FREE_SHIPPING_THRESHOLD_FLAG = 'free_shipping_threshold_cents';

/** The free-shipping threshold in cents for a session's bound shopper. */
export type FreeShippingThreshold = (shopper: BoundShopper | null) => Promise<number>;

/**
 * The subject a bound shopper is evaluated as: the attribute names of the web app's
 * evaluation context (apps/web/app/flags/evaluation-context.ts), so a targeting rule means
 * the same on the server as in the browser.
 */
export function shopperFlagSubject(shopper: BoundShopper): FlagSubject {
  return {
    targetingKey: shopper.id,
    attributes: {
      user_id: shopper.id,
      user_name: shopper.name,
      user_email: shopper.email,
      team: shopper.team,
      useDiscount: shopper.useDiscount,
      useNewCheckoutFlow: shopper.useNewCheckoutFlow,
    },
  };
}

/**
 * The threshold from the flag service for the session's bound shopper. An anonymous session,
 * no flag service, or a flag that assigns nothing usable (missing, disabled, not a
 * non-negative whole number of cents) gets the shop's constant.
 */
export function createFreeShippingThreshold(evaluate?: EvaluateFlagValue): FreeShippingThreshold {
  return async (shopper) => {
    if (!shopper || !evaluate) return FREE_SHIPPING_THRESHOLD_CENTS;
    const value = await evaluate(FREE_SHIPPING_THRESHOLD_FLAG, shopperFlagSubject(shopper));
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? value
      : FREE_SHIPPING_THRESHOLD_CENTS;
  };
}
