import type { FlaggingInitConfiguration } from '@datadog/openfeature-browser';
import { intakeProxy, type DeploymentProfile } from '../startup/deployment-profiles';
import { PROVIDER_READY_POLL_MS, PROVIDER_READY_TIMEOUT_MS } from '../startup/storage-keys';
import { PROVIDER_READY_TIMEOUT_WARNING } from './flag-messages';

/**
 * The Datadog provider's options for a deployment profile: assignments from the profile's flag
 * service (`flaggingProxy`, absolute), exposures and evaluation events through the monitoring
 * `proxy` (intakeProxy) — the local api in the local profile, Datadog itself when the profile
 * names no proxy.
 */
export function flagProviderOptions(
  profile: DeploymentProfile,
  version: string,
  { telemetry = true }: { telemetry?: boolean } = {},
): FlaggingInitConfiguration {
  // In a webview (docs/requirements.md §1: monitoring skipped) the provider evaluates but reports nothing.
  if (!telemetry) {
    return {
      clientToken: profile.clientToken,
      applicationId: profile.applicationId,
      site: profile.site,
      env: profile.env,
      service: profile.service,
      version,
      enableExposureLogging: false,
      enableFlagEvaluationTracking: false,
      enableRumFeatureFlagTracking: false,
      ...(profile.flagsUrl === null ? {} : { flaggingProxy: profile.flagsUrl }),
    };
  }
  return {
    clientToken: profile.clientToken,
    applicationId: profile.applicationId,
    site: profile.site,
    env: profile.env,
    service: profile.service,
    version,
    enableExposureLogging: true,
    enableFlagEvaluationTracking: true,
    ...(profile.flagsUrl === null ? {} : { flaggingProxy: profile.flagsUrl }),
    ...(profile.intakeUrl === null ? {} : { proxy: intakeProxy(profile.intakeUrl) }),
  };
}

/** Demo deployments (env dev) wait for flags before the page settles; production never waits. */
export function isDemoMode(profile: DeploymentProfile): boolean {
  return profile.env === 'dev';
}

export interface ReadyWaitOptions {
  isReady: () => boolean;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  warn: (message: string) => void;
  pollMs?: number;
  timeoutMs?: number;
}

/**
 * Spec §4: wait for READY, polling every 100 ms; after 10000 ms warn and proceed anyway.
 * Resolves true when ready, false on timeout.
 */
export async function waitForProviderReady(options: ReadyWaitOptions): Promise<boolean> {
  const pollMs = options.pollMs ?? PROVIDER_READY_POLL_MS;
  const timeoutMs = options.timeoutMs ?? PROVIDER_READY_TIMEOUT_MS;
  const deadline = options.now() + timeoutMs;
  while (!options.isReady()) {
    if (options.now() >= deadline) {
      options.warn(PROVIDER_READY_TIMEOUT_WARNING);
      return false;
    }
    await options.sleep(pollMs);
  }
  return true;
}
