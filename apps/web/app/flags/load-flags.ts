import type { StartupResult } from '../startup/orchestrator';
import { FLAG_INIT_ERROR } from './flag-messages';
import { markFlagStatus } from './flag-store';

/**
 * docs/architecture.md start-up step 6, after hydration: loads the flag provider chunk (the
 * OpenFeature SDK and the Datadog provider) and starts it. When the chunk itself cannot load the
 * shop goes on with defaults and logs the spec's error.
 */
export async function loadAndStartFeatureFlags(result: StartupResult): Promise<void> {
  const runtime = await import('./flag-provider-runtime').catch((error: unknown) => {
    markFlagStatus('error');
    console.error(FLAG_INIT_ERROR, error);
    return null;
  });
  await runtime?.startFeatureFlags(result);
}
