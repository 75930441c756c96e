import { describe, expect, it } from 'vitest';
import {
  applyQuerySwitches,
  normalisePathname,
  parseQuerySwitches,
  parseSwitchValue,
  readBuyNowButtonMode,
  readNewProductPhotosMode,
  readStoredFlag,
} from './query-switches';
import { DEMO_MODE_KEYS, FLAG_KEYS } from './storage-keys';
import { createMemoryStorage } from './test-support/memory-storage';

/** Parses and applies `search` on `pathname` over the given starting storage. */
function visit(
  search: string,
  pathname = '/',
  initial: { local?: Record<string, string>; session?: Record<string, string> } = {},
) {
  const local = createMemoryStorage(initial.local);
  const session = createMemoryStorage(initial.session);
  const switches = parseQuerySwitches(new URLSearchParams(search), pathname);
  applyQuerySwitches(switches, local, session);
  return { switches, local: local.snapshot(), session: session.snapshot() };
}

describe('parseSwitchValue', () => {
  it('R-4.1 accepts true/false in any letter case', () => {
    expect(['true', 'TRUE', 'True', 'tRuE'].map(parseSwitchValue)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['false', 'FALSE', 'False'].map(parseSwitchValue)).toEqual([false, false, false]);
  });

  it('R-4.1 ignores any other value, including an empty one', () => {
    expect(['', '1', '0', 'yes', ' true', 'truee', null].map(parseSwitchValue)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('R-4.2 new_checkout_flow', () => {
  it('R-4.2 new_checkout_flow=true stores newCheckoutFlow "true", case-insensitively', () => {
    expect(visit('new_checkout_flow=TRUE').local).toEqual({ [FLAG_KEYS.newCheckoutFlow]: 'true' });
  });

  it('R-4.2 new_checkout_flow=false leaves a remembered "true" alone', () => {
    const { local } = visit('new_checkout_flow=false', '/', {
      local: { [FLAG_KEYS.newCheckoutFlow]: 'true' },
    });
    expect(local[FLAG_KEYS.newCheckoutFlow]).toBe('true');
  });

  it('R-4.2 new_checkout_flow=false on a fresh browser stores nothing', () => {
    expect(visit('new_checkout_flow=false').local).toEqual({});
  });

  it('R-4.2 the flag is remembered on later loads without the switch', () => {
    const { local } = visit('', '/department/chairs', {
      local: { [FLAG_KEYS.newCheckoutFlow]: 'true' },
    });
    expect(local).toEqual({ [FLAG_KEYS.newCheckoutFlow]: 'true' });
  });
});

describe('R-4.3 checkout_country_selector_first', () => {
  it('R-4.3 sets the flag true or false outside /cart and /checkout', () => {
    expect(visit('checkout_country_selector_first=true', '/profile').local).toEqual({
      [FLAG_KEYS.checkoutCountrySelector]: 'true',
    });
    expect(
      visit('checkout_country_selector_first=False', '/', {
        local: { [FLAG_KEYS.checkoutCountrySelector]: 'true' },
      }).local,
    ).toEqual({ [FLAG_KEYS.checkoutCountrySelector]: 'false' });
  });

  it.each(['/cart', '/checkout', '/cart/', '/checkout/'])(
    'R-4.3 is forced "false" on %s even when the switch says true',
    (path) => {
      expect(visit('checkout_country_selector_first=true', path).local).toEqual({
        [FLAG_KEYS.checkoutCountrySelector]: 'false',
      });
    },
  );

  it.each(['/cart', '/checkout'])(
    'R-4.3 is forced "false" on %s without the switch, over a stored "true"',
    (path) => {
      const { local, switches } = visit('', path, {
        local: { [FLAG_KEYS.checkoutCountrySelector]: 'true' },
      });
      expect(switches.countrySelectorForcedOff).toBe(true);
      expect(local[FLAG_KEYS.checkoutCountrySelector]).toBe('false');
    },
  );

  it('R-4.3 is not forced on other paths that merely start like /cart', () => {
    const { local } = visit('', '/cartography', {
      local: { [FLAG_KEYS.checkoutCountrySelector]: 'true' },
    });
    expect(local[FLAG_KEYS.checkoutCountrySelector]).toBe('true');
  });
});

describe('R-4.4 loyalty, payments, loaf', () => {
  it.each([
    ['loyalty', FLAG_KEYS.showLoyaltyProgram],
    ['payments', FLAG_KEYS.showPayments],
    ['loaf', FLAG_KEYS.showLoAF],
  ])('R-4.4 %s sets %s true or false', (param, key) => {
    expect(visit(`${param}=true`).local).toEqual({ [key]: 'true' });
    expect(visit(`${param}=FALSE`, '/', { local: { [key]: 'true' } }).local).toEqual({
      [key]: 'false',
    });
    expect(visit(`${param}=maybe`, '/', { local: { [key]: 'true' } }).local).toEqual({
      [key]: 'true',
    });
  });

  it('R-3.1 stored flags read as booleans, absent or unreadable as null', () => {
    const storage = createMemoryStorage({ a: 'true', b: 'false', c: 'yes' });
    expect(['a', 'b', 'c', 'd'].map((key) => readStoredFlag(storage, key))).toEqual([
      true,
      false,
      null,
      null,
    ]);
  });
});

describe('R-4.5 buy-now demo mode', () => {
  it('R-4.5 ffe-buy-now-button=true enables buy-now in session storage', () => {
    const { session, local } = visit('ffe-buy-now-button=true');
    expect(JSON.parse(session[DEMO_MODE_KEYS.buyNowButton] ?? 'null')).toEqual({
      enabled: true,
      shouldError: false,
    });
    expect(local).toEqual({});
  });

  it('R-4.5 ffe-buy-now-button-error=true adds the error to the stored mode', () => {
    const { session } = visit('ffe-buy-now-button-error=true', '/', {
      session: { [DEMO_MODE_KEYS.buyNowButton]: '{"enabled":true,"shouldError":false}' },
    });
    expect(JSON.parse(session[DEMO_MODE_KEYS.buyNowButton] ?? 'null')).toEqual({
      enabled: true,
      shouldError: true,
    });
  });

  it('R-4.5 both switches at once, and false turns a field off', () => {
    const both = visit('ffe-buy-now-button=true&ffe-buy-now-button-error=true').session;
    expect(JSON.parse(both[DEMO_MODE_KEYS.buyNowButton] ?? 'null')).toEqual({
      enabled: true,
      shouldError: true,
    });
    const off = visit('ffe-buy-now-button=false', '/', {
      session: { [DEMO_MODE_KEYS.buyNowButton]: '{"enabled":true,"shouldError":true}' },
    }).session;
    expect(JSON.parse(off[DEMO_MODE_KEYS.buyNowButton] ?? 'null')).toEqual({
      enabled: false,
      shouldError: true,
    });
  });

  it('R-3.2 an unreadable stored mode counts as off', () => {
    const storage = createMemoryStorage({ [DEMO_MODE_KEYS.buyNowButton]: '{not json' });
    expect(readBuyNowButtonMode(storage)).toEqual({ enabled: false, shouldError: false });
    const { session } = visit('ffe-buy-now-button-error=true', '/', {
      session: { [DEMO_MODE_KEYS.buyNowButton]: '[1,2]' },
    });
    expect(JSON.parse(session[DEMO_MODE_KEYS.buyNowButton] ?? 'null')).toEqual({
      enabled: false,
      shouldError: true,
    });
  });
});

describe('R-4.6 new-photos demo mode', () => {
  it('R-4.6 ffe-new-product-photos=true enables it in session storage; false disables', () => {
    const on = visit('ffe-new-product-photos=true').session;
    expect(on).toEqual({ [DEMO_MODE_KEYS.newProductPhotos]: '{"enabled":true}' });
    const off = createMemoryStorage(visit('ffe-new-product-photos=false').session);
    expect(readNewProductPhotosMode(off)).toEqual({ enabled: false });
    expect(readNewProductPhotosMode(createMemoryStorage(on))).toEqual({ enabled: true });
  });
});

describe('R-2.7 start-up switches ship, rumdev, loyalty, webview', () => {
  it('R-2.7 ship is trimmed and lower-cased; empty counts as absent', () => {
    expect(parseQuerySwitches(new URLSearchParams('ship=%20AP2%20'), '/').ship).toBe('ap2');
    expect(parseQuerySwitches(new URLSearchParams('ship='), '/').ship).toBeNull();
    expect(parseQuerySwitches(new URLSearchParams(''), '/').ship).toBeNull();
  });

  it('R-2.7 rumdev is on when present unless it says false', () => {
    const rumdev = (search: string) => parseQuerySwitches(new URLSearchParams(search), '/').rumdev;
    expect([rumdev('rumdev'), rumdev('rumdev=true'), rumdev('rumdev=1')]).toEqual([
      true,
      true,
      true,
    ]);
    expect([rumdev(''), rumdev('rumdev=false'), rumdev('rumdev=FALSE')]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('R-1.1 webview is on when present with any value, even false', () => {
    const webview = (search: string) =>
      parseQuerySwitches(new URLSearchParams(search), '/').webview;
    expect([webview('webview'), webview('webview=false'), webview('webview=1')]).toEqual([
      true,
      true,
      true,
    ]);
    expect(webview('')).toBe(false);
  });

  it('R-2.7 loyalty is parsed for the shopper-list option', () => {
    expect(parseQuerySwitches(new URLSearchParams('loyalty=True'), '/').loyalty).toBe(true);
    expect(parseQuerySwitches(new URLSearchParams(''), '/').loyalty).toBeNull();
  });

  it('R-4.1 a URL without switches changes no storage', () => {
    expect(visit('q=chairs&page=2', '/department/chairs')).toMatchObject({
      local: {},
      session: {},
    });
  });
});

describe('normalisePathname', () => {
  it('drops trailing slashes but keeps the root', () => {
    expect(['/cart/', '/cart//', '/', '', '/a/b'].map(normalisePathname)).toEqual([
      '/cart',
      '/cart',
      '/',
      '/',
      '/a/b',
    ]);
  });
});
