// Route experiments and records. Evaluations are computed
// purely, then handed to one recording function; the monitoring code passes `DD_RUM` as sink.
import { INSTANT_PAY_B_BELOW, INSTANT_PAY_C_ABOVE } from '@showroom/contracts/experiment-constants';
import { INSTANT_PAY_FLAG } from '@showroom/contracts/monitoring-constants';
import { normalisePathname } from './query-switches';
import type { RandomSource } from './sample-identity';
import { INSTANT_PAY_VARIANT_KEY, type KeyValueStorage } from './storage-keys';

export type InstantPayVariant = 'a' | 'b' | 'c';

export { INSTANT_PAY_FLAG };
export const PERSONAL_RECOMMENDATIONS_FLAG = 'personal_recommendations';

export type FeatureFlagEvaluation =
  | { key: typeof INSTANT_PAY_FLAG; value: InstantPayVariant }
  | { key: typeof PERSONAL_RECOMMENDATIONS_FLAG; value: 1 };

/** What records an evaluation; `window.DD_RUM` fits. */
export interface FeatureFlagSink {
  addFeatureFlagEvaluation(key: string, value: unknown): void;
}

/** under 0.33 → b, over 0.66 → c, otherwise (0.33 to 0.66 inclusive) → a. */
export function assignInstantPay(random: RandomSource): InstantPayVariant {
  const value = random();
  if (value < INSTANT_PAY_B_BELOW) return 'b';
  if (value > INSTANT_PAY_C_ABOVE) return 'c';
  return 'a';
}

// Design: "under /department/{x}/" needs a non-empty segment after the department, so
// /department/x/product/1 counts and the listing itself (/department/x, /department/x/) does not.
const UNDER_DEPARTMENT = /^\/department\/[^/]+\/[^/]/;

/**
 * The experiments a page load evaluates. `random` is drawn once, on /cart only
 * (trailing slash ignored), so each full load of /cart draws a fresh variant.
 */
export function routeExperiments(pathname: string, random: RandomSource): FeatureFlagEvaluation[] {
  const path = normalisePathname(pathname);
  if (path === '/cart') return [{ key: INSTANT_PAY_FLAG, value: assignInstantPay(random) }];
  if (UNDER_DEPARTMENT.test(path)) return [{ key: PERSONAL_RECOMMENDATIONS_FLAG, value: 1 }];
  return [];
}

/** Records each evaluation in order. */
export function recordFeatureFlagEvaluations(
  evaluations: readonly FeatureFlagEvaluation[],
  sink: FeatureFlagSink,
): void {
  for (const { key, value } of evaluations) sink.addFeatureFlagEvaluation(key, value);
}

/** Keeps the instant_pay variant of this load in session storage for the checkout UI. */
export function rememberInstantPayVariant(
  evaluations: readonly FeatureFlagEvaluation[],
  sessionStorage: KeyValueStorage,
): void {
  for (const evaluation of evaluations) {
    if (evaluation.key === INSTANT_PAY_FLAG) {
      sessionStorage.setItem(INSTANT_PAY_VARIANT_KEY, evaluation.value);
    }
  }
}

/** The variant drawn on the last /cart load of this tab, or `null` before any. */
export function readInstantPayVariant(sessionStorage: KeyValueStorage): InstantPayVariant | null {
  const stored = sessionStorage.getItem(INSTANT_PAY_VARIANT_KEY);
  return stored === 'a' || stored === 'b' || stored === 'c' ? stored : null;
}
