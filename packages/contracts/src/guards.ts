import { Type, type Static } from 'typebox';
import { literalUnion } from './catalog.js';

/**
 * Guarded rollouts (docs/decisions/019-guarded-rollouts.md): a flag allocation's rollout carries
 * a guard that compares a metric of the treatment variant with the control variant, computed
 * from the stored RUM events, and rolls back or holds when the treatment is worse; it can also
 * step the rollout up while the guard holds.
 */

export const GUARD_METRIC_KINDS = [
  'action-error-rate',
  'js-errors-per-session',
  'p75-lcp',
  'payment-decline-rate',
] as const;
export type GuardMetricKind = (typeof GUARD_METRIC_KINDS)[number];

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

export const GUARD_CHECK_EVERY_MIN_MS = 1_000;
export const GUARD_CHECK_EVERY_DEFAULT_MS = 15_000;

export const GuardMetricSchema = Type.Object({
  kind: literalUnion(GUARD_METRIC_KINDS),
  /**
   * action-error-rate: the RUM action a success sends (e.g. "place order"). The rate is
   * failures / (failures + actions).
   */
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** action-error-rate: the RUM error message a failure sends; absent: every error counts. */
  error: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  /** p75-lcp: the page's path ("/checkout"); a view counts when its URL's path is this one. */
  page: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^/' })),
});
export type GuardMetric = Static<typeof GuardMetricSchema>;

/** PUT /flags/{key}/guard: the guard of one allocation of the flag (one guard per flag). */
export const GuardBodySchema = Type.Object({
  allocation: Type.String({ minLength: 1, maxLength: 200 }),
  metric: GuardMetricSchema,
  /** The variation key every subject gets when the allocation takes nobody (e.g. "off"). */
  control: Type.String({ minLength: 1, maxLength: 200 }),
  /** The variation key the allocation rolls out (e.g. "on"). */
  treatment: Type.String({ minLength: 1, maxLength: 200 }),
  /**
   * Absolute, in the metric's own unit (a rate as a fraction 0–1, errors per session, ms): the
   * guard trips when treatment − control > margin.
   */
  margin: Type.Number({ minimum: 0 }),
  /** Sessions each variant needs in the window before the guard may trip. */
  minSessions: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  action: literalUnion(GUARD_ACTIONS),
  /** Rollout percentages to step through, rising (e.g. [5, 25, 50, 100]); absent: no stepping. */
  steps: Type.Optional(
    Type.Array(Type.Number({ minimum: 0, maximum: 100 }), { minItems: 1, maxItems: 20 }),
  ),
  /** How long the guard must hold at a step before the next one, ms. */
  holdMs: Type.Integer({ minimum: 0, maximum: 30 * 24 * 3_600_000 }),
  checkEveryMs: Type.Optional(
    Type.Integer({
      minimum: GUARD_CHECK_EVERY_MIN_MS,
      maximum: 3_600_000,
      default: GUARD_CHECK_EVERY_DEFAULT_MS,
    }),
  ),
});
export type GuardBody = Static<typeof GuardBodySchema>;

/** A stored guard: the body with its flag and every default filled in. */
export const GuardDefinitionSchema = Type.Object({
  ...GuardBodySchema.properties,
  flag: Type.String(),
  checkEveryMs: Type.Integer(),
});
export type GuardDefinition = Static<typeof GuardDefinitionSchema>;

export const VariantMetricSchema = Type.Object({
  /** The metric (null: nothing to compute it from yet). */
  value: Type.Union([Type.Number(), Type.Null()]),
  sessions: Type.Integer(),
});
export type VariantMetric = Static<typeof VariantMetricSchema>;

export const GuardCheckSchema = Type.Object({
  at: Type.Integer({ description: 'Epoch ms' }),
  /** Events since this time were counted (the current step's start). */
  since: Type.Integer(),
  control: VariantMetricSchema,
  treatment: VariantMetricSchema,
  margin: Type.Number(),
});
export type GuardCheck = Static<typeof GuardCheckSchema>;

export const GuardStateSchema = Type.Object({
  flag: Type.String(),
  definition: GuardDefinitionSchema,
  status: literalUnion(GUARD_STATUSES),
  /** Index into `steps` (0 without steps). */
  currentStep: Type.Integer(),
  /** The allocation's rollout percentage the guard set last (null: it has set none). */
  percentage: Type.Union([Type.Number(), Type.Null()]),
  stepStartedAt: Type.Integer(),
  lastCheck: Type.Union([GuardCheckSchema, Type.Null()]),
  trippedAt: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.Integer(),
  createdBy: Type.String(),
});
export type GuardState = Static<typeof GuardStateSchema>;

export const GuardListSchema = Type.Object({ guards: Type.Array(GuardStateSchema) });
export type GuardList = Static<typeof GuardListSchema>;

export const GUARD_ROUTES = {
  list: '/guards',
  one: '/guards/:flag',
  put: '/flags/:key/guard',
} as const;
