/**
 * Guarded rollouts' names and limits without their schemas (docs/decisions/019-guarded-rollouts.md),
 * so the /flags page's guard form imports no schema library (apps/web/bundle-budget.json);
 * guards.ts builds its schemas from these and re-exports them.
 */

export const GUARD_METRIC_KINDS = [
  'action-error-rate',
  'js-errors-per-session',
  'p75-lcp',
  'payment-decline-rate',
] as const;
export type GuardMetricKind = (typeof GUARD_METRIC_KINDS)[number];

/** The optional fields of a guard's metric (`metric.action`, `metric.error`, `metric.page`). */
export type GuardMetricField = 'action' | 'error' | 'page';

/**
 * Which metric fields each kind reads: `required` ones the api refuses the guard without, and
 * `optional` ones (action-error-rate without `error` counts every error as a failure).
 */
export const GUARD_METRIC_FIELDS: Readonly<
  Record<
    GuardMetricKind,
    { required: readonly GuardMetricField[]; optional: readonly GuardMetricField[] }
  >
> = {
  'action-error-rate': { required: ['action'], optional: ['error'] },
  'js-errors-per-session': { required: [], optional: [] },
  'p75-lcp': { required: ['page'], optional: [] },
  'payment-decline-rate': { required: [], optional: [] },
};

/** Longest `metric.action` and `metric.page`, and the variation and allocation keys. */
export const GUARD_NAME_MAX_LENGTH = 200;
/** Longest `metric.error` (a RUM error message). */
export const GUARD_ERROR_MAX_LENGTH = 500;

export const GUARD_ACTIONS = ['rollback', 'hold'] as const;
export type GuardAction = (typeof GUARD_ACTIONS)[number];

export const GUARD_STATUSES = ['watching', 'tripped', 'rolled-back', 'held', 'completed'] as const;
export type GuardStatus = (typeof GUARD_STATUSES)[number];

/** What a guard's 'guard' markers record (packages/contracts/src/markers.ts). */
export const GUARD_MARKER_ACTIONS = [
  'step',
  'tripped',
  'rolled-back',
  'held',
  'completed',
] as const;
export type GuardMarkerAction = (typeof GUARD_MARKER_ACTIONS)[number];

/** Most sessions a guard may ask of each variant before it may trip. */
export const GUARD_MIN_SESSIONS_MAX = 1_000_000;
/** Most rollout steps, each a percentage from 0 to 100. */
export const GUARD_STEPS_MAX = 20;
/** Longest hold at a step: 30 days. */
export const GUARD_HOLD_MAX_MS = 30 * 24 * 3_600_000;

export const GUARD_CHECK_EVERY_MIN_MS = 1_000;
export const GUARD_CHECK_EVERY_MAX_MS = 3_600_000;
export const GUARD_CHECK_EVERY_DEFAULT_MS = 15_000;
