import { Type, type Static } from 'typebox';

/**
 * Tracking events and experiments (docs/requirements.md "Experiments"): what the shop reports
 * through OpenFeature `track()` (specification section 6) and what the flag service stores with
 * the subject's targeting key, so experiment results can count conversions and revenue per
 * variant. OFREP defines no tracking route; this one is ours.
 */

/** `POST` a batch of tracking events (TrackingBatchSchema); answers 202 TrackingAcceptedSchema. */
export const TRACKING_ROUTE = '/flags/track';

/** The events the shop tracks: added to cart, began checkout, placed an order. */
export const TRACKING_EVENTS = {
  addToCart: 'add_to_cart',
  beginCheckout: 'begin_checkout',
  purchase: 'purchase',
} as const;
export type TrackingEventName = (typeof TRACKING_EVENTS)[keyof typeof TRACKING_EVENTS];

/** The event that makes a subject a conversion in experiment results. */
export const CONVERSION_EVENT = TRACKING_EVENTS.purchase;

/** A name as OpenFeature apps write them: lower case, digits, `_`, `.`, `-`. */
export const TRACKING_EVENT_NAME_PATTERN = '^[a-z][a-z0-9_.-]{0,63}$';

/** Most events in one request (the shop sends one at a time; the traffic generator batches). */
export const TRACKING_BATCH_MAX = 100;

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

/**
 * The shop's client-side experiment: not a flag of the flag service, so the web reports
 * its assignment as an exposure itself, with this allocation key, and results read its split
 * from INSTANT_PAY_SPLIT.
 */
export const INSTANT_PAY_ALLOCATION = 'client-random';

/** a random value under this gives variant b… */
export const INSTANT_PAY_B_BELOW = 0.33;
/** …over this gives c, otherwise a. */
export const INSTANT_PAY_C_ABOVE = 0.66;

/** R-4.7's split as shares of subjects per variant. */
export const INSTANT_PAY_SPLIT: Readonly<Record<string, number>> = {
  a: INSTANT_PAY_C_ABOVE - INSTANT_PAY_B_BELOW,
  b: INSTANT_PAY_B_BELOW,
  c: 1 - INSTANT_PAY_C_ABOVE,
};

/** instant_pay's control variant (the shop as it was before the experiment). */
export const INSTANT_PAY_CONTROL = 'a';
