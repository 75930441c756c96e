/**
 * Custom monitoring actions the shop sends at its key steps, and the names the inspector counts
 * them by (docs/requirements.md ). One list, so a renamed action cannot split the data.
 */
export const MONITORING_ACTIONS = {
  addToCart: 'add to cart',
  beginCheckout: 'begin checkout',
  placeOrder: 'place order',
  loyaltySignUp: 'loyalty sign-up',
  /** A results view of /search: `query_length` and `result_count`, never the query's text. */
  search: 'search',
  /** The same view when nothing matched (sent besides `search`). */
  zeroResultSearch: 'zero-result search',
  /**
   * The video quality demo (docs/decisions/013-video-demo.md): each carries the playback's
   * quality-of-experience numbers (`video_*`). `video start` when the playhead first moves,
   * `video rebuffer` when a rebuffering begins, `video error` on a playback failure, and
   * `video summary` once at the end of each playback (ended, failed, or the page hidden or left).
   */
  videoStart: 'video start',
  videoRebuffer: 'video rebuffer',
  videoError: 'video error',
  videoSummary: 'video summary',
} as const;

export type MonitoringActionName = (typeof MONITORING_ACTIONS)[keyof typeof MONITORING_ACTIONS];

/** The experiment the inspector's conversion chart compares. */
export const INSTANT_PAY_FLAG = 'instant_pay';

/** How many sessions GET /monitoring/sessions lists by default, and at most. */
export const SESSION_LIST_DEFAULT = 50;
export const SESSION_LIST_MAX = 500;
/** Most timeline entries one session answers (views, actions, errors, vitals, flags). */
export const TIMELINE_MAX = 2000;
