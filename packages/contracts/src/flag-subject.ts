import type { BrowserFamily } from './browser-family.js';
import type { PersonaTier } from './accounts.js';
import type { SampleShopper } from './shopper.js';
import type { CheckoutFlow } from './orders.js';

/** A sample shopper or an account, with its loyalty standing when known (decision 008). */
export type FlagPersona = SampleShopper & { tier?: PersonaTier; loyaltyMember?: boolean };

/**
 * Who a flag is evaluated for: the targeting key and the attributes targeting rules can name.
 * Values keep their types (a null `useDiscount` stays null, so `IS_NULL` means the same
 * everywhere).
 */
export interface FlagSubject {
  targetingKey: string;
  attributes: {
    browser: BrowserFamily;
    user_id?: string;
    user_name?: string;
    user_email?: string;
    team?: string;
    useDiscount?: boolean | null;
    useNewCheckoutFlow?: boolean;
    tier?: PersonaTier;
    loyaltyMember?: boolean;
    /**
     * Only in the api's evaluation of the payment decline fault (decision 020): the checkout
     * flow the order was placed in, so a fault can be aimed at one flow.
     */
    checkoutFlow?: CheckoutFlow;
  };
}

/**
 * The one rule that turns a shopper into a flag subject: the stored identity plus the
 * browser family. Used by the browser's evaluation context and by the api's own evaluations,
 * so a rule on `browser`, `team` or a null `useDiscount` means the same on both sides. Without
 * a shopper the targeting key is empty: rules that need one assign nothing.
 */
export function buildFlagSubject(shopper: FlagPersona | null, browser: BrowserFamily): FlagSubject {
  if (!shopper) return { targetingKey: '', attributes: { browser } };
  return {
    targetingKey: shopper.id,
    attributes: {
      browser,
      user_id: shopper.id,
      user_name: shopper.name,
      user_email: shopper.email,
      team: shopper.team,
      useDiscount: shopper.useDiscount,
      useNewCheckoutFlow: shopper.useNewCheckoutFlow,
      ...(shopper.tier === undefined ? {} : { tier: shopper.tier }),
      ...(shopper.loyaltyMember === undefined ? {} : { loyaltyMember: shopper.loyaltyMember }),
    },
  };
}
