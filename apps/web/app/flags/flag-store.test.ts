import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as FlagStore from './flag-store';
import type { FlagClient, FlagProviderStatus } from './flag-store';

let store: typeof FlagStore;

beforeEach(async () => {
  // The store is page-wide state: every test starts from a freshly loaded module.
  vi.resetModules();
  store = await import('./flag-store');
});

/** A client that answers every flag with a fixed value and counts the evaluations. */
function fakeClient(providerStatus: FlagProviderStatus = 'READY') {
  const evaluated: string[] = [];
  const details = <T>(flagKey: string, value: T) => {
    evaluated.push(flagKey);
    return { flagKey, value, reason: 'TARGETING_MATCH', variant: 'on', flagMetadata: {} };
  };
  const client = {
    providerStatus,
    getBooleanDetails: (key: string) => details(key, true),
    getStringDetails: (key: string) => details(key, 'price-low'),
    getNumberDetails: (key: string) => details(key, 7),
    getObjectDetails: (key: string) => details(key, { title: 'From the flag' }),
  } as unknown as FlagClient;
  return { client, evaluated };
}

describe('the flag store before the provider chunk registers a client', () => {
  it('is at version 0, with no provider and the NOT_READY status', () => {
    expect(store.flagVersion()).toBe(0);
    expect(store.isFlagProviderSet()).toBe(false);
    expect(store.flagProviderStatus(store.flagVersion())).toBe('NOT_READY');
  });

  it("answers the caller's default without evaluating anything", () => {
    const evaluate = vi.fn();
    expect(store.readFlag(store.flagVersion(), 'show_payments', false, evaluate)).toEqual({
      flagKey: 'show_payments',
      value: false,
      reason: 'DEFAULT',
      flagMetadata: {},
    });
    expect(evaluate).not.toHaveBeenCalled();
  });

  it('a stray bump without a client still answers defaults', () => {
    store.bumpFlagVersion();
    expect(store.flagProviderStatus(store.flagVersion())).toBe('NOT_READY');
    expect(store.readFlag(store.flagVersion(), 'k', 'fallback', vi.fn()).value).toBe('fallback');
  });
});

describe('the flag store with a registered client', () => {
  it('registering sets the provider, bumps the version and tells subscribers', () => {
    const seen: number[] = [];
    store.subscribeFlags(() => seen.push(store.flagVersion()));
    store.registerFlagClient(fakeClient().client);
    expect(store.isFlagProviderSet()).toBe(true);
    expect(store.flagVersion()).toBe(1);
    expect(seen).toEqual([1]);
  });

  it('each provider event bumps the version once for every subscriber; unsubscribed ones hear nothing', () => {
    const first = vi.fn();
    const second = vi.fn();
    store.subscribeFlags(first);
    const unsubscribe = store.subscribeFlags(second);
    store.registerFlagClient(fakeClient().client);
    unsubscribe();
    store.bumpFlagVersion();
    store.bumpFlagVersion();
    expect(store.flagVersion()).toBe(3);
    expect(first).toHaveBeenCalledTimes(3);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('evaluates through the registered client and reads its status', () => {
    const { client, evaluated } = fakeClient('STALE');
    store.registerFlagClient(client);
    const version = store.flagVersion();
    const details = store.readFlag(version, 'recommendations_strategy', 'bestsellers', (c) =>
      c.getStringDetails('recommendations_strategy', 'bestsellers'),
    );
    expect(details).toMatchObject({ value: 'price-low', reason: 'TARGETING_MATCH' });
    expect(evaluated).toEqual(['recommendations_strategy']);
    expect(store.flagProviderStatus(version)).toBe('STALE');
  });

  it('the server snapshot (version 0) keeps answering defaults, as hydration must', () => {
    const { client, evaluated } = fakeClient();
    store.registerFlagClient(client);
    const atServerVersion = store.readFlag(store.serverFlagVersion(), 'show_loaf', false, (c) =>
      c.getBooleanDetails('show_loaf', false),
    );
    expect(atServerVersion.value).toBe(false);
    expect(store.flagProviderStatus(store.serverFlagVersion())).toBe('NOT_READY');
    expect(evaluated).toEqual([]);
  });
});
