// The designed effect of an `experiment` profile (README "Traffic generator"): which sessions
// convert, given the variant a session was shown. Pure, so its rates are tested without a shop.
import { INSTANT_PAY_B_BELOW, INSTANT_PAY_C_ABOVE } from '@showroom/contracts/experiments';
import {
  TRAFFIC_FUNNEL_STEPS,
  type TrafficExperiment,
  type TrafficProfile,
} from '@showroom/contracts/traffic';
import type { SessionPlan } from './planner.js';

/** The flag drawn in the session itself, as the shop's /cart draws it. */
export const CLIENT_SIDE_FLAG = 'instant_pay';

/** R-4.7's draw: under 0.33 → b, over 0.66 → c, otherwise a (the contract's thresholds). */
export function drawInstantPay(draw: number): 'a' | 'b' | 'c' {
  if (draw < INSTANT_PAY_B_BELOW) return 'b';
  if (draw > INSTANT_PAY_C_ABOVE) return 'c';
  return 'a';
}

/** The share of sessions reaching the cart that finish their order under the profile's funnel. */
export function baseConversionRate(profile: TrafficProfile): number {
  return TRAFFIC_FUNNEL_STEPS.filter((step) => step !== 'product').reduce(
    (rate, step) => rate * (1 - (profile.dropOff[step] ?? 0)),
    1,
  );
}

/**
 * Whether a session that reached the cart places its order. Without the effect it does when its
 * plan leaves nowhere (probability `base`). Shown the experiment's variant, the probability
 * becomes `multiplier × base` (at most 1): a multiplier above 1 converts some sessions that would
 * have left — (m − 1)·base / (1 − base) of them — and one below 1 keeps only a share m of those
 * that would have bought. `effectDraw` is the plan's own uniform draw.
 */
export function convertsWithEffect(options: {
  plannedToBuy: boolean;
  base: number;
  shownVariant: string;
  experiment: TrafficExperiment;
  effectDraw: number;
}): boolean {
  const { plannedToBuy, base, shownVariant, experiment, effectDraw } = options;
  if (shownVariant !== experiment.variant) return plannedToBuy;
  const m = experiment.conversionMultiplier;
  if (m <= 1) return plannedToBuy && effectDraw < m;
  if (plannedToBuy) return true;
  if (base >= 1) return false;
  return effectDraw < Math.min(1, ((m - 1) * base) / (1 - base));
}

/** Whether a plan's session would finish its order without any effect (it leaves nowhere). */
export function plannedToBuy(plan: SessionPlan): boolean {
  return plan.leavesAt === null;
}
