import { Type, type Static } from 'typebox';
import { literalUnion } from './catalog.js';
import {
  GUARD_ACTIONS,
  GUARD_CHECK_EVERY_DEFAULT_MS,
  GUARD_CHECK_EVERY_MAX_MS,
  GUARD_CHECK_EVERY_MIN_MS,
  GUARD_ERROR_MAX_LENGTH,
  GUARD_HOLD_MAX_MS,
  GUARD_METRIC_KINDS,
  GUARD_MIN_SESSIONS_MAX,
  GUARD_NAME_MAX_LENGTH,
  GUARD_STATUSES,
  GUARD_STEPS_MAX,
} from './guard-constants.js';

export * from './guard-constants.js';

/**
 * Guarded rollouts (docs/decisions/019-guarded-rollouts.md): a flag allocation's rollout carries
 * a guard that compares a metric of the treatment variant with the control variant, computed
 * from the stored RUM events, and rolls back or holds when the treatment is worse; it can also
 * step the rollout up while the guard holds.
 */

export const GuardMetricSchema = Type.Object({
  kind: literalUnion(GUARD_METRIC_KINDS),
  /**
   * action-error-rate: the RUM action a success sends (e.g. "place order"). The rate is
   * failures / (failures + actions).
   */
  action: Type.Optional(Type.String({ minLength: 1, maxLength: GUARD_NAME_MAX_LENGTH })),
  /** action-error-rate: the RUM error message a failure sends; absent: every error counts. */
  error: Type.Optional(Type.String({ minLength: 1, maxLength: GUARD_ERROR_MAX_LENGTH })),
  /** p75-lcp: the page's path ("/checkout"); a view counts when its URL's path is this one. */
  page: Type.Optional(
    Type.String({ minLength: 1, maxLength: GUARD_NAME_MAX_LENGTH, pattern: '^/' }),
  ),
});
export type GuardMetric = Static<typeof GuardMetricSchema>;

/** PUT /flags/{key}/guard: the guard of one allocation of the flag (one guard per flag). */
export const GuardBodySchema = Type.Object({
  allocation: Type.String({ minLength: 1, maxLength: GUARD_NAME_MAX_LENGTH }),
  metric: GuardMetricSchema,
  /** The variation key every subject gets when the allocation takes nobody (e.g. "off"). */
  control: Type.String({ minLength: 1, maxLength: GUARD_NAME_MAX_LENGTH }),
  /** The variation key the allocation rolls out (e.g. "on"). */
  treatment: Type.String({ minLength: 1, maxLength: GUARD_NAME_MAX_LENGTH }),
  /**
   * Absolute, in the metric's own unit (a rate as a fraction 0–1, errors per session, ms): the
   * guard trips when treatment − control > margin.
   */
  margin: Type.Number({ minimum: 0 }),
  /** Sessions each variant needs in the window before the guard may trip. */
  minSessions: Type.Integer({ minimum: 1, maximum: GUARD_MIN_SESSIONS_MAX }),
  action: literalUnion(GUARD_ACTIONS),
  /** Rollout percentages to step through, rising (e.g. [5, 25, 50, 100]); absent: no stepping. */
  steps: Type.Optional(
    Type.Array(Type.Number({ minimum: 0, maximum: 100 }), {
      minItems: 1,
      maxItems: GUARD_STEPS_MAX,
    }),
  ),
  /** How long the guard must hold at a step before the next one, ms. */
  holdMs: Type.Integer({ minimum: 0, maximum: GUARD_HOLD_MAX_MS }),
  checkEveryMs: Type.Optional(
    Type.Integer({
      minimum: GUARD_CHECK_EVERY_MIN_MS,
      maximum: GUARD_CHECK_EVERY_MAX_MS,
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
