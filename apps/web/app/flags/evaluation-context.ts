import type { EvaluationContext } from '@openfeature/web-sdk';
import type { BrowserFamily } from '../startup/browser-family';
import type { SampleShopper } from '../startup/sample-identity';

/**
 * Spec §4: the flag evaluation context is the stored identity plus the browser family. Targeting
 * rules in the flag service use these attribute names.
 */
export function buildEvaluationContext(
  identity: SampleShopper | null,
  browser: BrowserFamily,
): EvaluationContext {
  if (!identity) return { targetingKey: '', browser };
  return {
    targetingKey: identity.id,
    user_id: identity.id,
    user_name: identity.name,
    user_email: identity.email,
    browser,
    team: identity.team,
    useDiscount: identity.useDiscount,
    useNewCheckoutFlow: identity.useNewCheckoutFlow,
  };
}
