import { Type, type Static } from 'typebox';
import { TRACKING_BATCH_MAX, TRACKING_EVENT_NAME_PATTERN } from './experiment-constants.js';

/**
 * Tracking events and experiments (docs/architecture.md "Feature flags"): what the shop reports
 * through OpenFeature `track()` (specification section 6) and what the flag service stores with
 * the subject's targeting key, so experiment results can count conversions and revenue per
 * variant. OFREP defines no tracking route; this one is ours. The constants (route, event names,
 * instant_pay's split) are in experiment-constants.ts, which the web's pages import.
 */
export {
  CONVERSION_EVENT,
  INSTANT_PAY_ALLOCATION,
  INSTANT_PAY_B_BELOW,
  INSTANT_PAY_C_ABOVE,
  INSTANT_PAY_CONTROL,
  INSTANT_PAY_SPLIT,
  TRACKING_BATCH_MAX,
  TRACKING_EVENT_NAME_PATTERN,
  TRACKING_EVENTS,
  TRACKING_ROUTE,
  type TrackingEventName,
} from './experiment-constants.js';

export const TrackingEventSchema = Type.Object(
  {
    targetingKey: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The evaluation context targeting key (the shopper id)',
    }),
    name: Type.String({ pattern: TRACKING_EVENT_NAME_PATTERN, description: 'Tracking event name' }),
    /** Epoch ms when the shop tracked it; the service stores when it received it beside it. */
    timestamp: Type.Integer({ minimum: 0 }),
    /** Money in integer cents (OpenFeature's `value`), e.g. an order's total. */
    value: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    /** Other details (flat: strings, numbers, booleans). */
    details: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 64 }),
        Type.Union([Type.String({ maxLength: 256 }), Type.Number(), Type.Boolean()]),
        { maxProperties: 16 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TrackingEvent = Static<typeof TrackingEventSchema>;

export const TrackingBatchSchema = Type.Object(
  {
    events: Type.Array(TrackingEventSchema, { minItems: 1, maxItems: TRACKING_BATCH_MAX }),
  },
  { additionalProperties: false },
);
export type TrackingBatch = Static<typeof TrackingBatchSchema>;

export const TrackingAcceptedSchema = Type.Object(
  { stored: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type TrackingAccepted = Static<typeof TrackingAcceptedSchema>;

// Experiment results (GET /experiments, GET /experiments/:flagKey): counts per variant with
// honest statistics (docs/decisions/017-experiment-statistics.md).

export {
  EXPERIMENT_CONFIDENCE,
  EXPERIMENT_SERIES_MAX_POINTS,
  SRM_P_THRESHOLD,
} from './experiment-constants.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** An estimate with its 95 % interval; null where it cannot be computed (no subjects, n < 2…). */
export const EstimateSchema = Type.Object(
  {
    estimate: Nullable(Type.Number()),
    low: Nullable(Type.Number()),
    high: Nullable(Type.Number()),
  },
  { additionalProperties: false },
);
export type Estimate = Static<typeof EstimateSchema>;

/** A variant against the control: the difference, the relative lift, the two-sided p-value. */
export const ComparisonSchema = Type.Object(
  {
    /** Variant minus control (a share for conversion, cents for revenue per subject). */
    absolute: EstimateSchema,
    /** Difference ÷ control's value (0.1 = +10 %); null when the control's value is 0. */
    relative: EstimateSchema,
    pValue: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
);
export type Comparison = Static<typeof ComparisonSchema>;

export const VariantResultSchema = Type.Object(
  {
    variant: Type.String(),
    isControl: Type.Boolean(),
    /** Subjects whose first exposure to the flag was to this variant. */
    exposed: Type.Integer({ minimum: 0 }),
    /** Of those, subjects with a `purchase` tracking event at or after their first exposure. */
    conversions: Type.Integer({ minimum: 0 }),
    /** Share of exposed subjects who converted, with its Wilson score interval. */
    conversionRate: EstimateSchema,
    /** Sum of those subjects' purchase values after their first exposure, integer cents. */
    revenueCents: Type.Integer({ minimum: 0 }),
    /** Mean purchase revenue per exposed subject (0 for non-buyers), cents, normal interval. */
    revenuePerSubjectCents: EstimateSchema,
    /** Null on the control. Conversion: unpooled interval, pooled two-proportion z-test. */
    conversionLift: Nullable(ComparisonSchema),
    /** Null on the control. Revenue per subject: Welch (normal) interval and test. */
    revenueLift: Nullable(ComparisonSchema),
  },
  { additionalProperties: false },
);
export type VariantResult = Static<typeof VariantResultSchema>;

/** Chi-square goodness of fit of the exposed counts against the allocation's split. */
export const SampleRatioCheckSchema = Type.Object(
  {
    allocationKey: Type.String(),
    /** Expected share per variant (sums to 1), from the allocation's splits. */
    expected: Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 })),
    /** Subjects first exposed under that allocation, per variant. */
    observed: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
    chiSquare: Type.Number({ minimum: 0 }),
    degreesOfFreedom: Type.Integer({ minimum: 1 }),
    pValue: Type.Number({ minimum: 0, maximum: 1 }),
    threshold: Type.Number(),
    /** pValue < threshold: the split is not what was configured; distrust the results. */
    mismatch: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SampleRatioCheck = Static<typeof SampleRatioCheckSchema>;

export const SeriesPointSchema = Type.Object(
  {
    /** Epoch ms: the end of the bucket. */
    at: Type.Number(),
    exposed: Type.Integer({ minimum: 0 }),
    conversions: Type.Integer({ minimum: 0 }),
    /** Cumulative conversions ÷ cumulative exposed subjects; null before the first exposure. */
    rate: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
);
export type SeriesPoint = Static<typeof SeriesPointSchema>;

export const ExperimentSourceSchema = Type.Union([
  Type.Literal('flag-service'),
  Type.Literal('client'),
]);
export type ExperimentSource = Static<typeof ExperimentSourceSchema>;

export const ExperimentParamsSchema = Type.Object({
  flagKey: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,128}$' }),
});

export const ExperimentQuerySchema = Type.Object({
  since: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Epoch ms: only exposures from then on count (and purchases after them)',
    }),
  ),
});

export const ExperimentReportSchema = Type.Object(
  {
    flagKey: Type.String(),
    source: ExperimentSourceSchema,
    control: Type.String(),
    since: Nullable(Type.Number()),
    generatedAt: Type.Number(),
    confidence: Type.Number(),
    conversionEvent: Type.String(),
    /** Currencies of the purchases counted (the shop sells in one). */
    currencies: Type.Array(Type.String()),
    variants: Type.Array(VariantResultSchema),
    /** Null when no allocation splits subjects between two or more observed variants. */
    sampleRatio: Nullable(SampleRatioCheckSchema),
    series: Type.Array(
      Type.Object(
        { variant: Type.String(), points: Type.Array(SeriesPointSchema) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ExperimentReport = Static<typeof ExperimentReportSchema>;

export const ExperimentSummarySchema = Type.Object(
  {
    flagKey: Type.String(),
    source: ExperimentSourceSchema,
    variants: Type.Array(Type.String()),
    control: Type.String(),
    /** Distinct subjects exposed to the flag. */
    exposedSubjects: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type ExperimentSummary = Static<typeof ExperimentSummarySchema>;

export const ExperimentListSchema = Type.Object(
  { experiments: Type.Array(ExperimentSummarySchema) },
  { additionalProperties: false },
);
export type ExperimentList = Static<typeof ExperimentListSchema>;
