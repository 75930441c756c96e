import type { RumInitConfiguration } from '@datadog/browser-rum';
import {
  intakeProxy,
  type DeploymentProfile,
  type SampleRateField,
} from '../startup/deployment-profiles';

/**
 * The monitoring SDK's init options, made from the deployment profile inside the monitoring
 * chunk (datadog-rum.ts), which loads after the page is interactive: the start-up sequence
 * hands over what they are made of (MonitoringSetup), so this code is not part of the script
 * every page loads before it hydrates (bundle-budget.json).
 */

/** What the start-up sequence knows when it starts monitoring (app/startup/orchestrator.ts). */
export interface MonitoringSetup {
  /** The chosen profile, its addresses resolved against the page (resolveProfileAddresses). */
  profile: DeploymentProfile;
  /** The version the session reports (app/startup/version.ts). */
  version: string;
  /** The shop backend in use (a stored override or the profile's), traced when tracing is on. */
  backendUrl: string;
}

/** the monitoring defaults, used when a profile does not set a rate. */
export const MONITORING_DEFAULTS = {
  sessionSampleRate: 100,
  telemetrySampleRate: 20,
  telemetryConfigurationSampleRate: 5,
  telemetryUsageSampleRate: 5,
  sessionReplaySampleRate: 100,
  profilingSampleRate: 100,
} as const satisfies Record<SampleRateField, number>;

const PROPAGATOR_TYPES = ['tracecontext', 'datadog'] as const;
/**
 * Events that carry `feature_flags` besides views and errors (the SDK's default): the session
 * inspector shows flag variants on actions, resources, long tasks and vitals too.
 */
const FLAG_TRACKED_EVENTS = ['action', 'resource', 'long_task', 'vital'] as const;

export function monitoringInitOptions({
  profile,
  version,
  backendUrl,
}: MonitoringSetup): RumInitConfiguration {
  const traced = profile.enableTracing
    ? [...new Set([backendUrl, ...(profile.allowedTracingUrls ?? [])])]
    : [];
  const rate = (field: SampleRateField): number => profile[field] ?? MONITORING_DEFAULTS[field];
  return {
    applicationId: profile.applicationId,
    clientToken: profile.clientToken,
    site: profile.site,
    service: profile.service,
    env: profile.env,
    version,
    sessionSampleRate: rate('sessionSampleRate'),
    telemetrySampleRate: rate('telemetrySampleRate'),
    telemetryConfigurationSampleRate: rate('telemetryConfigurationSampleRate'),
    telemetryUsageSampleRate: rate('telemetryUsageSampleRate'),
    sessionReplaySampleRate: rate('sessionReplaySampleRate'),
    profilingSampleRate: rate('profilingSampleRate'),
    startSessionReplayRecordingManually: true,
    defaultPrivacyLevel: 'mask-user-input',
    // Frustrations are tracked as part of user interactions in SDK v5 and later.
    trackUserInteractions: true,
    trackResources: true,
    trackLongTasks: true,
    allowUntrustedEvents: profile.allowUntrustedEvents,
    allowedTracingUrls: traced.map((match) => ({ match, propagatorTypes: [...PROPAGATOR_TYPES] })),
    // Views and errors always carry feature_flags; the inspector wants them on the rest too.
    trackFeatureFlagsForEvents: [...FLAG_TRACKED_EVENTS],
    ...(profile.intakeUrl === null ? {} : { proxy: intakeProxy(profile.intakeUrl) }),
  };
}
