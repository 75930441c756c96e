import { Type, type Static } from 'typebox';
import { TRACKING_BATCH_MAX, TRACKING_EVENT_NAME_PATTERN } from './experiment-constants.js';

/**
 * Tracking events and experiments (docs/requirements.md "Experiments"): what the shop reports
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
