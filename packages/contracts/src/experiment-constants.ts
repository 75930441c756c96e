// Constants of tracking events and experiments, without schemas: the web's page bundle imports
// these, and a schema module would bring the schema builder along (apps/web/bundle-budget.json).
// The schemas are in experiments.ts and exposures.ts.

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

/** The intake path exposures are forwarded to (`<intake>?ddforward=<this>`). */
export const EXPOSURES_FORWARD_PATH = '/api/v2/exposures?ddsource=browser';

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
// Rounded, so the shares read as written (0.34, not 0.33999999999999997).
const share = (value: number) => Math.round(value * 1e6) / 1e6;
export const INSTANT_PAY_SPLIT: Readonly<Record<string, number>> = {
  a: share(INSTANT_PAY_C_ABOVE - INSTANT_PAY_B_BELOW),
  b: share(INSTANT_PAY_B_BELOW),
  c: share(1 - INSTANT_PAY_C_ABOVE),
};

/** instant_pay's control variant (the shop as it was before the experiment). */
export const INSTANT_PAY_CONTROL = 'a';

/** Every interval of the results is a 95 % interval. */
export const EXPERIMENT_CONFIDENCE = 0.95;

/** The sample-ratio-mismatch check warns when its chi-square p-value is below this. */
export const SRM_P_THRESHOLD = 0.001;

/** Most points of a variant's cumulative-conversion series. */
export const EXPERIMENT_SERIES_MAX_POINTS = 100;
