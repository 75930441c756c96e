import type {
  GuardDefinition,
  GuardMetricKind,
  GuardStatus,
  VariantMetric,
} from '@showroom/contracts/guards';

/**
 * The pure half of guarded rollouts (docs/decisions/019-guarded-rollouts.md): a variant's
 * metric from its counted samples, and what a guard does given both variants' metrics.
 */

/** What the stored events of one variant's sessions add up to in a guard's window. */
export interface VariantSamples {
  /** Sessions that saw this variant (and not the other one) in the window. */
  sessions: number;
  /** Actions of the metric's name (successes of action-error-rate and payment-decline-rate). */
  actions: number;
  /** Errors that count as failures of the action (every error for js-errors-per-session). */
  failures: number;
  /** Largest contentful paint of each view of the metric's page, ms. */
  lcpMs: number[];
}

export const EMPTY_SAMPLES: VariantSamples = { sessions: 0, actions: 0, failures: 0, lcpMs: [] };

/** The 75th percentile by nearest rank (the value 75 % of views are at or under). */
export function percentile75(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil(0.75 * sorted.length);
  return sorted[Math.max(0, rank - 1)] ?? null;
}

/** One variant's metric; null when nothing it is made of was seen yet. */
export function variantMetric(kind: GuardMetricKind, samples: VariantSamples): VariantMetric {
  const { sessions } = samples;
  switch (kind) {
    case 'action-error-rate':
    case 'payment-decline-rate': {
      const attempts = samples.actions + samples.failures;
      return { value: attempts === 0 ? null : samples.failures / attempts, sessions };
    }
    case 'js-errors-per-session':
      return { value: sessions === 0 ? null : samples.failures / sessions, sessions };
    case 'p75-lcp':
      return { value: percentile75(samples.lcpMs), sessions };
  }
}

export type GuardDecision =
  | { kind: 'none' }
  /** Treatment worse than control by more than the margin, with enough sessions in each. */
  | { kind: 'trip' }
  /**
   * To the next step; `completes` when it is the last and takes everyone (100 %): no subject is
   * left on control to compare with, so the rollout is complete once it is applied.
   */
  | { kind: 'advance'; step: number; percentage: number; completes: boolean }
  | { kind: 'complete' };

export interface DecisionState {
  status: GuardStatus;
  stepIndex: number;
  stepStartedAt: number;
}

/** Both variants have at least `minSessions` sessions and a value: the comparison counts. */
export function isComparable(
  definition: Pick<GuardDefinition, 'minSessions'>,
  control: VariantMetric,
  treatment: VariantMetric,
): boolean {
  return (
    control.sessions >= definition.minSessions &&
    treatment.sessions >= definition.minSessions &&
    control.value !== null &&
    treatment.value !== null
  );
}

/**
 * Every metric is "higher is worse", and the margin is absolute in the metric's unit: the guard
 * trips when treatment − control > margin. A rollout steps on only once the current step has
 * lasted `holdMs` and the comparison counted (enough sessions of each): a guard that could not
 * have tripped for lack of traffic has not held.
 */
export function decideGuard(
  definition: Pick<GuardDefinition, 'minSessions' | 'margin' | 'steps' | 'holdMs'>,
  state: DecisionState,
  control: VariantMetric,
  treatment: VariantMetric,
  now: number,
): GuardDecision {
  if (state.status !== 'watching') return { kind: 'none' };
  const comparable = isComparable(definition, control, treatment);
  if (comparable && (treatment.value as number) - (control.value as number) > definition.margin) {
    return { kind: 'trip' };
  }
  const steps = definition.steps;
  if (!steps || !comparable || now - state.stepStartedAt < definition.holdMs) {
    return { kind: 'none' };
  }
  const next = state.stepIndex + 1;
  const percentage = steps[next];
  if (percentage === undefined) return { kind: 'complete' };
  return {
    kind: 'advance',
    step: next,
    percentage,
    completes: next === steps.length - 1 && percentage >= 100,
  };
}
