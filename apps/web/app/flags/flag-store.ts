import type { Client, EvaluationDetails, FlagValue, ProviderStatus } from '@openfeature/web-sdk';

// The page's view of the feature flags, in the page bundle. The OpenFeature SDK and the Datadog
// provider are a chunk loaded after hydration (docs/architecture.md "Start-up in the browser",
// step 6); that chunk registers its client here and bumps the version on every provider event,
// and the hooks (use-flag.ts) evaluate through the registered client. Nothing here imports the
// SDK at run time.

/** The part of the OpenFeature client that pages evaluate through. */
export type FlagClient = Pick<
  Client,
  | 'providerStatus'
  | 'getBooleanDetails'
  | 'getStringDetails'
  | 'getNumberDetails'
  | 'getObjectDetails'
>;

/** A provider status by its value (`NOT_READY`, `READY`, `ERROR`, …; docs/requirements.md ). */
export type FlagProviderStatus = `${ProviderStatus}`;

let client: FlagClient | null = null;
let version = 0;
const listeners = new Set<() => void>();

/**
 * Called by the provider chunk once the Datadog provider is handed to OpenFeature: from now on
 * flags are evaluated through `registered`.
 */
export function registerFlagClient(registered: FlagClient): void {
  client = registered;
  bumpFlagVersion();
}

/** A provider event (ready, configuration or context changed, stale, error, reconciling). */
export function bumpFlagVersion(): void {
  version += 1;
  for (const listener of [...listeners]) listener();
}

/** `useSyncExternalStore`'s subscribe: `listener` runs after every version bump. */
export function subscribeFlags(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The current version: 0 until a client is registered. */
export function flagVersion(): number {
  return version;
}

/** The version the server renders with, and hydration with it: no provider, defaults only. */
export function serverFlagVersion(): number {
  return 0;
}

/** True once this page has handed OpenFeature the Datadog provider (not the no-op default). */
export function isFlagProviderSet(): boolean {
  return client !== null;
}

/** The provider status as seen at `seenVersion`; NOT_READY on the server and before a client. */
export function flagProviderStatus(seenVersion: number): FlagProviderStatus {
  if (seenVersion === 0 || client === null) return 'NOT_READY';
  return client.providerStatus;
}

const NO_METADATA = Object.freeze({});

/**
 * One evaluation as seen at `seenVersion`: through the registered client (so exposures and
 * evaluation tracking happen as the provider does them, R-7.5, R-7.6), or the caller's default
 * when the page renders on the server, hydrates or has no provider yet (R-8.4: the default).
 */
export function readFlag<T extends FlagValue>(
  seenVersion: number,
  flagKey: string,
  defaultValue: T,
  evaluate: (registered: FlagClient) => EvaluationDetails<T>,
): EvaluationDetails<T> {
  if (seenVersion === 0 || client === null) {
    return { flagKey, value: defaultValue, reason: 'DEFAULT', flagMetadata: NO_METADATA };
  }
  return evaluate(client);
}

/** The provider's state on the page, for presenters (and tests) to see: `<html data-flags>`. */
export function markFlagStatus(status: 'ready' | 'error'): void {
  document.documentElement.dataset.flags = status;
}
