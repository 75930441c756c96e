import type { EvaluationContext } from '@openfeature/web-sdk';
import type { BrowserFamily } from '@showroom/contracts/browser-family';
import { buildFlagSubject } from '@showroom/contracts/flag-subject';
import type { FlagPersona } from '@showroom/contracts/flag-subject';

/**
 * the flag evaluation context is the stored identity plus the browser family — the
 * contract's flag subject, so the api's own evaluations see the same attributes. With a persona
 * (decision 008) that is the account or the identity with `tier` and `loyaltyMember`.
 */
export function buildEvaluationContext(
  identity: FlagPersona | null,
  browser: BrowserFamily,
): EvaluationContext {
  const subject = buildFlagSubject(identity, browser);
  return { targetingKey: subject.targetingKey, ...subject.attributes };
}
