import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../startup/test-support/memory-storage';
import {
  BUILD_RELOADS_KEY,
  claimReload,
  linkDecision,
  manifestDelay,
  prefetchesManifest,
  RELOAD_THROTTLE_MS,
} from './build-rules';
import type { KeyValueStorage } from '../startup/storage-keys';

const T0 = Date.UTC(2026, 0, 24, 15, 30);

describe('R-4.20 a forced reload at most once per 10 s per path', () => {
  it('allows the first reload of a path and remembers it', () => {
    const storage = createMemoryStorage();
    expect(claimReload(storage, '/department/chairs', T0)).toBe(true);
    expect(JSON.parse(storage.getItem(BUILD_RELOADS_KEY) ?? '')).toEqual({
      '/department/chairs': T0,
    });
  });

  it('refuses the same path within 10000 ms, allows it from 10000 ms on', () => {
    const storage = createMemoryStorage();
    expect(claimReload(storage, '/cart', T0)).toBe(true);
    expect(claimReload(storage, '/cart', T0 + 1)).toBe(false);
    expect(claimReload(storage, '/cart', T0 + RELOAD_THROTTLE_MS - 1)).toBe(false);
    expect(claimReload(storage, '/cart', T0 + RELOAD_THROTTLE_MS)).toBe(true);
    expect(claimReload(storage, '/cart', T0 + RELOAD_THROTTLE_MS + 5_000)).toBe(false);
  });

  it('counts each path on its own', () => {
    const storage = createMemoryStorage();
    expect(claimReload(storage, '/cart', T0)).toBe(true);
    expect(claimReload(storage, '/checkout', T0 + 1)).toBe(true);
    expect(claimReload(storage, '/cart', T0 + 2)).toBe(false);
    expect(claimReload(storage, '/checkout', T0 + 3)).toBe(false);
  });

  it('forgets reloads older than the period, so the record stays small', () => {
    const storage = createMemoryStorage();
    claimReload(storage, '/a', T0);
    claimReload(storage, '/b', T0 + RELOAD_THROTTLE_MS + 1);
    expect(Object.keys(JSON.parse(storage.getItem(BUILD_RELOADS_KEY) ?? ''))).toEqual(['/b']);
  });

  it('a reload remembered in the future (the clock went back) does not hold the path for ever', () => {
    const storage = createMemoryStorage({ [BUILD_RELOADS_KEY]: JSON.stringify({ '/a': T0 }) });
    expect(claimReload(storage, '/a', T0 - 60_000)).toBe(true);
  });

  it('a damaged record counts as none', () => {
    for (const stored of ['not json', '42', 'null', '{"\\/a":"yesterday"}']) {
      const storage = createMemoryStorage({ [BUILD_RELOADS_KEY]: stored });
      expect(claimReload(storage, '/a', T0)).toBe(true);
    }
  });

  it('storage that cannot be written allows no reload (it could not be remembered)', () => {
    const full: KeyValueStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(claimReload(full, '/a', T0)).toBe(false);
  });
});

describe('R-4.21 the manifest prefetch', () => {
  it('is skipped on slow-2g only', () => {
    expect(prefetchesManifest('slow-2g')).toBe(false);
    for (const type of ['2g', '3g', '4g', undefined]) expect(prefetchesManifest(type)).toBe(true);
  });

  it('starts 1000 ms after the load event', () => {
    expect(manifestDelay(500, 500)).toBe(1_000);
    expect(manifestDelay(500, 1_200)).toBe(300);
    expect(manifestDelay(500, 4_000)).toBe(0);
  });
});

describe('R-4.9 links with a route rule, and links after a new build', () => {
  const page = new URL('http://shop.test/department/chairs');
  const rules = {
    '/sale': { redirect: { to: '/department/sofas', statusCode: 302 as const } },
    '/rum-docs': { redirect: { to: 'https://docs.example.com/rum', statusCode: 302 as const } },
  };
  const at = (path: string) => new URL(path, page);

  it('a rule sends the link to its target: inside the shop or a full page load elsewhere', () => {
    expect(linkDecision(at('/sale'), page, rules, false)).toEqual({
      kind: 'redirect',
      to: '/department/sofas',
      external: false,
    });
    expect(linkDecision(at('/sale?x=1'), page, rules, false)).toMatchObject({ kind: 'redirect' });
    expect(linkDecision(at('/rum-docs'), page, rules, false)).toEqual({
      kind: 'redirect',
      to: 'https://docs.example.com/rum',
      external: true,
    });
  });

  it('other links, and links to other sites, are left alone', () => {
    expect(linkDecision(at('/cart'), page, rules, false)).toEqual({ kind: 'none' });
    expect(linkDecision(at('/toString'), page, rules, false)).toEqual({ kind: 'none' });
    expect(linkDecision(new URL('https://elsewhere.test/sale'), page, rules, true)).toEqual({
      kind: 'none',
    });
  });

  it('once a new build is known, a link to another page loads the document', () => {
    expect(linkDecision(at('/cart'), page, rules, true)).toEqual({
      kind: 'document',
      to: 'http://shop.test/cart',
    });
    // The same page with another query (a filter, a sort) stays a client-side navigation.
    expect(linkDecision(at('/department/chairs?sort=name-asc'), page, rules, true)).toEqual({
      kind: 'none',
    });
  });
});
