// Every browser-storage key and start-up constant of the storefront, named once
//
import type { ShopperListKind } from '@showroom/contracts/shopper';

/**
 * The part of the Web Storage API the start-up rules use. `window.localStorage` and
 * `window.sessionStorage` satisfy it; tests pass an in-memory map.
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Stored sample-shopper identity, local storage. */
export const IDENTITY_KEYS = {
  id: 'user_id',
  name: 'user_name',
  email: 'user_email',
  team: 'user_team',
  useDiscount: 'user_use_discount',
  useNewCheckoutFlow: 'user_use_new_checkout_flow',
} as const;

/**
 * Local storage: the persona the api knows this browser as, JSON of the session's `shopper`
 * (an account, or the sample shopper with their loyalty tier). Written from every session
 * answer; start-up reads it for the monitoring user and the flag subject (decision 008).
 */
export const PERSONA_KEY = 'shopper_persona';

/** Feature-flag overrides set by query switches, local storage, "true"/"false". */
export const FLAG_KEYS = {
  newCheckoutFlow: 'newCheckoutFlow',
  checkoutCountrySelector: 'checkoutCountrySelector',
  showLoyaltyProgram: 'showLoyaltyProgram',
  showPayments: 'showPayments',
  showLoAF: 'showLoAF',
} as const;

/** Demo modes, session storage, JSON values. */
export const DEMO_MODE_KEYS = {
  /** `{"enabled": boolean, "shouldError": boolean}` */
  buyNowButton: 'buyNowButton',
  /** `{"enabled": boolean}` */
  newProductPhotos: 'newProductPhotos',
} as const;

/**
 * Session storage: the scenario whose link opened this browser session, sent with
 * every monitoring event as the global context property `scenario`.
 */
export const SCENARIO_STORAGE_KEY = 'showroom_scenario';

/**
 * Session storage: `{"profile","run"}` set by the traffic generator (tools/traffic) before the
 * first page, sent as the global context properties `traffic` (the profile) and `traffic_run`.
 */
export const TRAFFIC_STORAGE_KEY = 'showroom_traffic';

/** Local storage: "true" only while the app version is a beta build. */
export const IS_BETA_KEY = 'isBeta';
/** Local storage: 8 hex characters hashed from the ISO year and week. */
export const ERROR_SHA_KEY = 'errorSHA';
/** Local storage: key of the deployment profile chosen last. */
export const RUM_CONFIG_KEY_KEY = 'rum_config_key';
/** Local storage: host (`location.host`) the profile was chosen on. */
export const RUM_CONFIG_HOST_KEY = 'rum_config_host';
/**
 * Local storage: backend-address override. Either a JSON object mapping a profile key
 * to an address (`{"local":"http://localhost:4001"}`), or one address for every profile; an
 * address is an absolute http(s) URL or a path on the page's origin ("/api"). See
 * `readBackendOverride` in deployment-profiles.ts.
 */
export const BACKEND_URL_OVERRIDE_KEY = 'backend_url_override';
/** Session storage: the instant_pay variant drawn on the last /cart load. */
export const INSTANT_PAY_VARIANT_KEY = 'instant_pay_variant';

/** Cookie whose presence selects the placeholder identity. */
export const JOHN_DOE_COOKIE = 'isJohnDoe';

/** Chance of an anonymous monitoring session on each start. */
export const ANONYMOUS_CHANCE = 1 / 5;
/** The shopper lists are split into one slice per UTC day of the week. */
export const DAY_SLICE_COUNT = 7;
/** The sample shopper lists; the second is the loyalty list. */
export const SHOPPER_LIST_KINDS: readonly ShopperListKind[] = ['standard', 'loyalty'];

/** Demo mode waits at most this long for the flag provider to be READY. */
export const PROVIDER_READY_TIMEOUT_MS = 10_000;
/** ...polling its status this often. */
export const PROVIDER_READY_POLL_MS = 100;

// The manifest prefetch delay, the forced-reload limit and their session-storage key (R-4.20,
// ) are in app/builds/build-rules.ts, inside the build watch's own chunk.

/** UTC hour below which the version is a beta, and below which it is a release candidate. */
export const BETA_BEFORE_UTC_HOUR = 8;
export const RC_BEFORE_UTC_HOUR = 16;

/** Profile used when neither the ship parameter, the host nor storage names one. */
export const FALLBACK_PROFILE_KEY = 'local';

/** Route without the start-up check. */
export const STARTUP_EXEMPT_PATH = '/scenarios';
