// Query-string switches read at start-up (R-4.1 … ). Parsing is separate from applying so the orchestrator and tests can inspect what a
// URL asks for before anything is written.
import { DEMO_MODE_KEYS, FLAG_KEYS, type KeyValueStorage } from './storage-keys';

/** A boolean switch: `true`/`false` when the parameter says so, `null` when absent or invalid. */
export type SwitchValue = boolean | null;

export interface QuerySwitches {
  /** `new_checkout_flow` — only `true` is ever stored. */
  newCheckoutFlow: SwitchValue;
  /** `checkout_country_selector_first`. */
  checkoutCountrySelectorFirst: SwitchValue;
  /** The path is /cart or /checkout, where the country-selector flag is forced off. */
  countrySelectorForcedOff: boolean;
  /** `loyalty` — the loyalty flag and the loyalty shopper-list option. */
  loyalty: SwitchValue;
  /** `payments`. */
  payments: SwitchValue;
  /** `loaf`. */
  loaf: SwitchValue;
  /** `ffe-buy-now-button`. */
  buyNowButton: SwitchValue;
  /** `ffe-buy-now-button-error`. */
  buyNowButtonError: SwitchValue;
  /** `ffe-new-product-photos`. */
  newProductPhotos: SwitchValue;
  /** `ship` — deployment profile key, trimmed and lower-cased; `null` when absent or empty. */
  ship: string | null;
  /** `rumdev` — forces the fixed demo user. */
  rumdev: boolean;
  /** `webview` — present at all (any value) skips monitoring start-up. */
  webview: boolean;
}

export interface BuyNowButtonMode {
  enabled: boolean;
  shouldError: boolean;
}

export interface NewProductPhotosMode {
  enabled: boolean;
}

const COUNTRY_SELECTOR_OFF_PATHS: ReadonlySet<string> = new Set(['/cart', '/checkout']);

/** `/cart/` and `/cart` are the same route; the root stays `/`. */
export function normalisePathname(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** 'true'/'false' in any letter case; anything else (including an empty value) is ignored. */
export function parseSwitchValue(raw: string | null): SwitchValue {
  if (raw === null) return null;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return null;
}

export function parseQuerySwitches(search: URLSearchParams, pathname: string): QuerySwitches {
  const flag = (name: string): SwitchValue => parseSwitchValue(search.get(name));
  const ship = search.get('ship')?.trim().toLowerCase() ?? '';
  const rumdev = search.get('rumdev');
  return {
    newCheckoutFlow: flag('new_checkout_flow'),
    checkoutCountrySelectorFirst: flag('checkout_country_selector_first'),
    countrySelectorForcedOff: COUNTRY_SELECTOR_OFF_PATHS.has(normalisePathname(pathname)),
    loyalty: flag('loyalty'),
    payments: flag('payments'),
    loaf: flag('loaf'),
    buyNowButton: flag('ffe-buy-now-button'),
    buyNowButtonError: flag('ffe-buy-now-button-error'),
    newProductPhotos: flag('ffe-new-product-photos'),
    ship: ship === '' ? null : ship,
    // Design: `?rumdev`, `?rumdev=1`, `?rumdev=true` all turn it on; only an explicit
    // `rumdev=false` (any case) leaves it off, so a presenter can write the switch either way.
    rumdev: rumdev !== null && rumdev.toLowerCase() !== 'false',
    webview: search.has('webview'),
  };
}

/**
 * Writes what the switches ask for. Stored booleans are the strings "true"/"false"; absent or
 * invalid switches leave storage untouched.
 */
export function applyQuerySwitches(
  switches: QuerySwitches,
  localStorage: KeyValueStorage,
  sessionStorage: KeyValueStorage,
): void {
  // only 'true' sets it; new_checkout_flow=false leaves a remembered "true" alone.
  if (switches.newCheckoutFlow === true) {
    localStorage.setItem(FLAG_KEYS.newCheckoutFlow, 'true');
  }

  // R-4.3 "forced off on /cart and /checkout". Decision: on those paths the stored value is
  // "false" after every full page load, whether or not the parameter is present (the spec
  // states it as a rule of the path, not of the parameter's value). Elsewhere the switch sets
  // it true or false. Consequence: because a stored override wins over the flag service, a
  // direct load of /cart or /checkout shows the selector-last layout; a client-side
  // navigation keeps whatever was stored on the previous full load.
  if (switches.countrySelectorForcedOff) {
    localStorage.setItem(FLAG_KEYS.checkoutCountrySelector, 'false');
  } else if (switches.checkoutCountrySelectorFirst !== null) {
    localStorage.setItem(
      FLAG_KEYS.checkoutCountrySelector,
      String(switches.checkoutCountrySelectorFirst),
    );
  }

  //
  const plainFlags: ReadonlyArray<readonly [string, SwitchValue]> = [
    [FLAG_KEYS.showLoyaltyProgram, switches.loyalty],
    [FLAG_KEYS.showPayments, switches.payments],
    [FLAG_KEYS.showLoAF, switches.loaf],
  ];
  for (const [key, value] of plainFlags) {
    if (value !== null) localStorage.setItem(key, String(value));
  }

  // each parameter sets its own field; the other field keeps its stored value.
  if (switches.buyNowButton !== null || switches.buyNowButtonError !== null) {
    const stored = readBuyNowButtonMode(sessionStorage);
    const next: BuyNowButtonMode = {
      enabled: switches.buyNowButton ?? stored.enabled,
      shouldError: switches.buyNowButtonError ?? stored.shouldError,
    };
    sessionStorage.setItem(DEMO_MODE_KEYS.buyNowButton, JSON.stringify(next));
  }

  //
  if (switches.newProductPhotos !== null) {
    const next: NewProductPhotosMode = { enabled: switches.newProductPhotos };
    sessionStorage.setItem(DEMO_MODE_KEYS.newProductPhotos, JSON.stringify(next));
  }
}

/** Stored flag override: `true`/`false`, or `null` when nothing (valid) is stored. */
export function readStoredFlag(storage: KeyValueStorage, key: string): boolean | null {
  return parseSwitchValue(storage.getItem(key));
}

/** Buy-now demo mode from session storage; off when absent or unreadable. */
export function readBuyNowButtonMode(storage: KeyValueStorage): BuyNowButtonMode {
  const stored = parseJsonObject(storage.getItem(DEMO_MODE_KEYS.buyNowButton));
  return {
    enabled: stored?.['enabled'] === true,
    shouldError: stored?.['shouldError'] === true,
  };
}

/** New-product-photos demo mode from session storage; off when absent or unreadable. */
export function readNewProductPhotosMode(storage: KeyValueStorage): NewProductPhotosMode {
  const stored = parseJsonObject(storage.getItem(DEMO_MODE_KEYS.newProductPhotos));
  return { enabled: stored?.['enabled'] === true };
}

function parseJsonObject(raw: string | null): Record<string, unknown> | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
