import { OpenFeature, ProviderStatus } from '@openfeature/web-sdk';
import type { StartupResult } from '../startup/orchestrator';
import { readStoredIdentity } from '../startup/sample-identity';
import { IDENTITY_KEYS } from '../startup/storage-keys';
import { buildEvaluationContext } from './evaluation-context';
import {
  FLAG_INIT_ERROR,
  FLAG_SYNC_WARNING,
  flagProviderOptions,
  isDemoMode,
  waitForProviderReady,
} from './flag-provider';

declare global {
  interface Window {
    showroomFlags?: ReturnType<typeof OpenFeature.getClient>;
  }
}

let providerSet = false;

/** True once this page has handed OpenFeature the Datadog provider (not the no-op default). */
export function isFlagProviderSet(): boolean {
  return providerSet;
}

/**
 * docs/architecture.md start-up step 6: the OpenFeature provider and context. The provider is its
 * own chunk. A failure is logged with the spec's message and the shop goes on with defaults; in
 * demo mode start-up waits for READY (poll 100 ms, give up after 10 s).
 */
export async function startFeatureFlags(result: StartupResult): Promise<void> {
  try {
    const { DatadogProvider } = await import('@datadog/openfeature-browser');
    const provider = new DatadogProvider(
      flagProviderOptions(result.profile, result.version.version, {
        // in a webview nothing is reported, exposures and flag evaluations included.
        telemetry: !result.switches.webview,
      }),
    );
    await OpenFeature.setContext(buildEvaluationContext(result.identity, result.browserFamily));
    providerSet = true;
    // A console handle for presenters: `await showroomFlags.getBooleanDetails('show_payments', false)`.
    window.showroomFlags = OpenFeature.getClient();
    const ready = OpenFeature.setProviderAndWait(provider).then(
      () => markFlagStatus('ready'),
      (error: unknown) => {
        markFlagStatus('error');
        console.error(FLAG_INIT_ERROR, error);
      },
    );
    watchIdentityChanges(result);
    if (!isDemoMode(result.profile)) return;
    await Promise.race([
      ready,
      waitForProviderReady({
        isReady: () => OpenFeature.getClient().providerStatus === ProviderStatus.READY,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        now: () => Date.now(),
        warn: (message) => console.warn(message),
      }),
    ]);
  } catch (error) {
    markFlagStatus('error');
    console.error(FLAG_INIT_ERROR, error);
  }
}

/** The provider's state on the page, for presenters (and tests) to see: `<html data-flags>`. */
function markFlagStatus(status: 'ready' | 'error'): void {
  document.documentElement.dataset.flags = status;
}

/** Re-syncs the evaluation context with the stored identity (docs/requirements.md §8 warning on failure). */
export async function syncFlagContext(result: StartupResult): Promise<void> {
  try {
    await OpenFeature.setContext(
      buildEvaluationContext(readStoredIdentity(localStorage), result.browserFamily),
    );
  } catch (error) {
    console.warn(FLAG_SYNC_WARNING, error);
  }
}

/** Another tab that changes the stored identity changes this tab's flag context too. */
function watchIdentityChanges(result: StartupResult): void {
  const identityKeys = new Set<string>(Object.values(IDENTITY_KEYS));
  window.addEventListener('storage', (event) => {
    if (event.key !== null && identityKeys.has(event.key)) void syncFlagContext(result);
  });
}
