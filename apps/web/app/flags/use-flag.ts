import { useMemo, useSyncExternalStore } from 'react';
import type { EvaluationDetails, JsonValue } from '@openfeature/web-sdk';
import {
  flagProviderStatus,
  flagVersion,
  readFlag,
  serverFlagVersion,
  subscribeFlags,
  type FlagProviderStatus,
} from './flag-store';

// Flag hooks over the page's flag store (flag-store.ts). A component re-renders when the provider
// becomes ready or its flags or context change, and evaluates again through the OpenFeature
// client then; server rendering and hydration see the version 0, so both render the defaults.
// Defaults are compared by identity: pass a constant, not an object literal made per render.

/** The flag store's version as this render sees it. */
function useFlagVersion(): number {
  return useSyncExternalStore(subscribeFlags, flagVersion, serverFlagVersion);
}

/** The provider status (docs/requirements.md ); NOT_READY until the provider is set. */
export function useFlagProviderStatus(): FlagProviderStatus {
  const version = useFlagVersion();
  return useMemo(() => flagProviderStatus(version), [version]);
}

export function useBooleanFlagDetails(
  flagKey: string,
  defaultValue: boolean,
): EvaluationDetails<boolean> {
  const version = useFlagVersion();
  return useMemo(
    () =>
      readFlag(version, flagKey, defaultValue, (client) =>
        client.getBooleanDetails(flagKey, defaultValue),
      ),
    [version, flagKey, defaultValue],
  );
}

export function useStringFlagValue(flagKey: string, defaultValue: string): string {
  const version = useFlagVersion();
  return useMemo(
    () =>
      readFlag(version, flagKey, defaultValue, (client) =>
        client.getStringDetails(flagKey, defaultValue),
      ).value,
    [version, flagKey, defaultValue],
  );
}

export function useObjectFlagValue<T extends JsonValue>(flagKey: string, defaultValue: T): T {
  const version = useFlagVersion();
  return useMemo(
    () =>
      readFlag<T>(version, flagKey, defaultValue, (client) =>
        client.getObjectDetails<T>(flagKey, defaultValue),
      ).value,
    [version, flagKey, defaultValue],
  );
}
