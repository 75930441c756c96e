/**
 * Custom monitoring actions the shop sends at its key steps, and the names the inspector counts
 * them by (docs/requirements.md ). One list, so a renamed action cannot split the data.
 */
export const MONITORING_ACTIONS = {
  addToCart: 'add to cart',
  beginCheckout: 'begin checkout',
  placeOrder: 'place order',
  loyaltySignUp: 'loyalty sign-up',
} as const;

export type MonitoringActionName = (typeof MONITORING_ACTIONS)[keyof typeof MONITORING_ACTIONS];

/** The experiment the inspector's conversion chart compares. */
export const INSTANT_PAY_FLAG = 'instant_pay';

/** How many sessions GET /monitoring/sessions lists by default, and at most. */
export const SESSION_LIST_DEFAULT = 50;
export const SESSION_LIST_MAX = 500;
/** Most timeline entries one session answers (views, actions, errors, vitals, flags). */
export const TIMELINE_MAX = 2000;
