import { ProviderEvents, type Client } from '@openfeature/web-sdk';
import { bumpFlagVersion, registerFlagClient } from './flag-store';

/** The provider events after which pages evaluate their flags again. */
export const FLAG_STORE_EVENTS: readonly ProviderEvents[] = [
  ProviderEvents.Ready,
  ProviderEvents.ConfigurationChanged,
  ProviderEvents.ContextChanged,
  ProviderEvents.Stale,
  ProviderEvents.Error,
  ProviderEvents.Reconciling,
];

/**
 * Part of the provider chunk: hands the page's flag store (flag-store.ts) the OpenFeature client
 * and bumps its version on each provider event, so components render the new values.
 */
export function connectFlagStore(client: Client): void {
  registerFlagClient(client);
  for (const event of FLAG_STORE_EVENTS) client.addHandler(event, bumpFlagVersion);
}
