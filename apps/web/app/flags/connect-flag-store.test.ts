import { InMemoryProvider, OpenFeature, type Provider } from '@openfeature/web-sdk';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ConnectFlagStore from './connect-flag-store';
import type * as FlagStore from './flag-store';

let store: typeof FlagStore;
let connectFlagStore: typeof ConnectFlagStore.connectFlagStore;
let domain = 0;

beforeEach(async () => {
  vi.resetModules();
  store = await import('./flag-store');
  ({ connectFlagStore } = await import('./connect-flag-store'));
  domain += 1;
});

const FLAGS = {
  show_payments: {
    variants: { on: true, off: false },
    defaultVariant: 'on',
    disabled: false,
  },
};

function showPayments(): boolean {
  return store.readFlag(store.flagVersion(), 'show_payments', false, (client) =>
    client.getBooleanDetails('show_payments', false),
  ).value;
}

/** An in-memory provider whose start-up takes as long as `started` (the flag service's answer). */
class StartingProvider extends InMemoryProvider {
  constructor(private readonly started: Promise<void>) {
    super(FLAGS);
  }

  initialize(): Promise<void> {
    return this.started;
  }
}

/** As the provider chunk does it: set the provider, then connect its client to the store. */
async function start(provider: Provider) {
  const name = `connect-test-${domain}`;
  const client = OpenFeature.getClient(name);
  const ready = OpenFeature.setProviderAndWait(name, provider);
  connectFlagStore(client);
  await ready.catch(() => {});
  return { name, client };
}

describe('the provider chunk feeding the flag store (real OpenFeature web SDK)', () => {
  it('once the provider is ready, pages see READY and the provider’s values', async () => {
    await start(new InMemoryProvider(FLAGS));
    expect(store.isFlagProviderSet()).toBe(true);
    expect(store.flagProviderStatus(store.flagVersion())).toBe('READY');
    expect(showPayments()).toBe(true);
  });

  it('a provider that is still starting is NOT_READY and answers the default', async () => {
    let finish: () => void = () => {};
    const provider = new StartingProvider(new Promise<void>((resolve) => (finish = resolve)));
    const name = `connect-test-${domain}`;
    const ready = OpenFeature.setProviderAndWait(name, provider);
    connectFlagStore(OpenFeature.getClient(name));
    const before = store.flagVersion();
    expect(store.flagProviderStatus(before)).toBe('NOT_READY');
    expect(showPayments()).toBe(false);
    finish();
    await ready;
    expect(store.flagVersion()).toBeGreaterThan(before);
    expect(store.flagProviderStatus(store.flagVersion())).toBe('READY');
    expect(showPayments()).toBe(true);
  });

  it('a changed configuration bumps the version and the new value is read', async () => {
    const provider = new InMemoryProvider(FLAGS);
    await start(provider);
    const listener = vi.fn();
    store.subscribeFlags(listener);
    const before = store.flagVersion();
    await provider.putConfiguration({
      show_payments: { ...FLAGS.show_payments, defaultVariant: 'off' },
    });
    expect(store.flagVersion()).toBeGreaterThan(before);
    expect(listener).toHaveBeenCalled();
    expect(showPayments()).toBe(false);
  });

  it('a context change (identity sync) bumps the version', async () => {
    const { name } = await start(new InMemoryProvider(FLAGS));
    const before = store.flagVersion();
    await OpenFeature.setContext(name, { targetingKey: 'ab12cd34' });
    expect(store.flagVersion()).toBeGreaterThan(before);
  });

  it('a provider that fails to start bumps the version into the ERROR status', async () => {
    const provider = new StartingProvider(Promise.reject(new Error('flag service stopped')));
    const before = store.flagVersion();
    await start(provider);
    expect(store.flagVersion()).toBeGreaterThan(before + 1);
    expect(store.flagProviderStatus(store.flagVersion())).toBe('ERROR');
  });
});
