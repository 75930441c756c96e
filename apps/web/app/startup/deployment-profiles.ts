// Deployment profiles: which monitoring config, flag service and shop backend a page uses
// (spec §3 "Deployment configuration record", §4, §5, §9 ).
//
// The profiles live in ONE file, ../config/deployment-profiles.json, keyed by profile key.
// Operators add or change profiles without a rebuild through one environment variable, read
// once by the server at start-up and handed to the browser as runtime config:
//
//   SHOWROOM_PROFILES_JSON='{"local":{"backendUrl":"http://localhost:4001"},
//                            "mine":{"applicationId":"…","clientToken":"…","site":"datadoghq.eu",
//                                    "service":"showroom-web","env":"dev","ship":"mine",
//                                    "backendUrl":"https://api.mine.example.net"}}'
//
// Each entry is merged field by field over the profile of the same key (a new key adds a
// profile, `null` as the whole entry removes one); the result is validated like the file.
import type { RumInitConfiguration } from '@datadog/browser-rum';
import defaultProfilesJson from '../config/deployment-profiles.json';
import {
  BACKEND_URL_OVERRIDE_KEY,
  FALLBACK_PROFILE_KEY,
  RUM_CONFIG_HOST_KEY,
  RUM_CONFIG_KEY_KEY,
  type KeyValueStorage,
} from './storage-keys';

export const PROFILES_ENV_VAR = 'SHOWROOM_PROFILES_JSON';

export type DeploymentEnv = 'dev' | 'prod';

export const SAMPLE_RATE_FIELDS = [
  'sessionSampleRate',
  'sessionReplaySampleRate',
  'telemetrySampleRate',
  'telemetryConfigurationSampleRate',
  'telemetryUsageSampleRate',
  'profilingSampleRate',
] as const;
export type SampleRateField = (typeof SAMPLE_RATE_FIELDS)[number];

export interface DeploymentProfile extends Partial<Record<SampleRateField, number>> {
  orgName: string;
  orgId: string | null;
  clientToken: string;
  applicationId: string;
  service: string;
  env: DeploymentEnv;
  /** `ship` query parameter value that selects this profile, or null. */
  ship: string | null;
  /** `location.host` (host:port) that selects this profile, or null. */
  host: string | null;
  /** More hosts selecting this profile (e.g. 127.0.0.1:3000 beside localhost:3000). */
  hostAliases: string[];
  /** Shop backend base address (the api). */
  backendUrl: string;
  enableTracing: boolean;
  allowUntrustedEvents: boolean;
  /** Traced URLs besides the backend address, or null for none. */
  allowedTracingUrls: string[] | null;
  /** Monitoring site, e.g. datadoghq.com. */
  site: string;
  /** Absolute URL of the precompute-assignments endpoint; null uses the provider's default. */
  flagsUrl: string | null;
  /** Monitoring SDK `proxy` (the api's intake); null sends to the site's own intake. */
  intakeUrl: string | null;
}

export type DeploymentProfiles = Readonly<Record<string, DeploymentProfile>>;

export class DeploymentProfileError extends Error {
  override readonly name = 'DeploymentProfileError';
  constructor(
    message: string,
    readonly profileKey: string | null = null,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

/** monitoring defaults of the spec, used when a profile does not set a rate. */
export const MONITORING_DEFAULTS = {
  sessionSampleRate: 100,
  telemetrySampleRate: 20,
  telemetryConfigurationSampleRate: 5,
  telemetryUsageSampleRate: 5,
  sessionReplaySampleRate: 100,
  profilingSampleRate: 100,
} as const satisfies Record<SampleRateField, number>;

const PROPAGATOR_TYPES = ['tracecontext', 'datadog'] as const;
/** Events that carry `feature_flags` besides views and errors (INTEGRATION-NOTES.md). */
const FLAG_TRACKED_EVENTS = ['action', 'resource', 'long_task', 'vital'] as const;

/**
 * Checks one profile and returns it normalised. Required (R-5.2, plus the shop backend):
 * applicationId, clientToken, site, service, env, backendUrl. Optional, with defaults:
 * orgName (the key), orgId/ship/host/allowedTracingUrls/flagsUrl/intakeUrl (null),
 * hostAliases ([]), enableTracing and allowUntrustedEvents (false), sample rates (spec
 * defaults at init). Throws DeploymentProfileError naming the key and the field.
 */
export function validateProfile(key: string, value: unknown): DeploymentProfile {
  const fail = (field: string, problem: string): never => {
    throw new DeploymentProfileError(
      `Deployment profile "${key}": field "${field}" ${problem}`,
      key,
      field,
    );
  };
  if (!isRecord(value)) {
    throw new DeploymentProfileError(`Deployment profile "${key}" must be an object`, key);
  }

  const requiredString = (field: string): string => {
    const v = value[field];
    if (v === undefined || v === null || v === '') return fail(field, 'is required');
    if (typeof v !== 'string') return fail(field, 'must be a string');
    return v;
  };
  const optionalString = (field: string): string | null => {
    const v = value[field];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string' || v === '') return fail(field, 'must be a non-empty string or null');
    return v;
  };
  const optionalBoolean = (field: string): boolean => {
    const v = value[field];
    if (v === undefined) return false;
    if (typeof v !== 'boolean') return fail(field, 'must be true or false');
    return v;
  };
  const url = (field: string, raw: string): string => {
    if (!isAbsoluteHttpUrl(raw)) fail(field, 'must be an absolute http(s) URL');
    return raw;
  };
  const urlList = (field: string): string[] | null => {
    const v = value[field];
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v) || !v.every((item) => typeof item === 'string')) {
      return fail(field, 'must be a list of URLs or null');
    }
    return v.map((item: string) => url(field, item));
  };

  // The monitoring fields first, in the order names them, so the first problem reported
  // is the one that makes the config unusable.
  const applicationId = requiredString('applicationId');
  const clientToken = requiredString('clientToken');
  const site = requiredString('site');
  const service = requiredString('service');
  const env = requiredString('env');
  if (env !== 'dev' && env !== 'prod') fail('env', 'must be "dev" or "prod"');

  const hostAliasesRaw = value['hostAliases'];
  if (
    hostAliasesRaw !== undefined &&
    (!Array.isArray(hostAliasesRaw) ||
      !hostAliasesRaw.every((item) => typeof item === 'string' && item !== ''))
  ) {
    fail('hostAliases', 'must be a list of hosts');
  }

  const intakeUrl = optionalString('intakeUrl');
  // The SDK appends `?ddforward=…` to the proxy URL; one that already has a query breaks.
  if (intakeUrl !== null && url('intakeUrl', intakeUrl).includes('?')) {
    fail('intakeUrl', 'must not have a query string');
  }
  const flagsUrl = optionalString('flagsUrl');
  if (flagsUrl !== null) url('flagsUrl', flagsUrl);

  const profile: DeploymentProfile = {
    orgName: optionalString('orgName') ?? key,
    orgId: optionalString('orgId'),
    clientToken,
    applicationId,
    service,
    env: env as DeploymentEnv,
    ship: optionalString('ship')?.toLowerCase() ?? null,
    host: optionalString('host')?.toLowerCase() ?? null,
    hostAliases: ((hostAliasesRaw ?? []) as string[]).map((h) => h.toLowerCase()),
    backendUrl: url('backendUrl', requiredString('backendUrl')),
    enableTracing: optionalBoolean('enableTracing'),
    allowUntrustedEvents: optionalBoolean('allowUntrustedEvents'),
    allowedTracingUrls: urlList('allowedTracingUrls'),
    site,
    flagsUrl,
    intakeUrl,
  };
  for (const field of SAMPLE_RATE_FIELDS) {
    const rate = value[field];
    if (rate === undefined) continue;
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 100) {
      fail(field, 'must be a number from 0 to 100');
    }
    profile[field] = rate as number;
  }
  return profile;
}

/**
 * Checks a whole profile map: every profile valid, a `local` profile present (the fallback),
 * and no ship parameter or host claimed by two profiles.
 */
export function validateProfiles(config: unknown): DeploymentProfiles {
  if (!isRecord(config)) throw new DeploymentProfileError('Deployment profiles must be an object');
  const profiles: Record<string, DeploymentProfile> = {};
  const shipOwner = new Map<string, string>();
  const hostOwner = new Map<string, string>();
  for (const [key, value] of Object.entries(config)) {
    const profile = validateProfile(key, value);
    claim(shipOwner, key, 'ship', profile.ship === null ? [] : [profile.ship]);
    claim(hostOwner, key, 'host', [
      ...(profile.host === null ? [] : [profile.host]),
      ...profile.hostAliases,
    ]);
    profiles[key] = profile;
  }
  if (profiles[FALLBACK_PROFILE_KEY] === undefined) {
    throw new DeploymentProfileError(
      `Deployment profiles: a "${FALLBACK_PROFILE_KEY}" profile is required (the fallback)`,
      FALLBACK_PROFILE_KEY,
    );
  }
  return profiles;
}

/** The profiles of ../config/deployment-profiles.json, validated. */
export function loadDefaultProfiles(): DeploymentProfiles {
  return validateProfiles(structuredClone(defaultProfilesJson));
}

/**
 * Applies `SHOWROOM_PROFILES_JSON` (see the top of this file). `env` is passed in (the server
 * passes `process.env` once at start-up); without the variable the profiles are returned as
 * they are.
 */
export function applyEnvProfileOverrides(
  profiles: DeploymentProfiles,
  env: Readonly<Record<string, string | undefined>>,
): DeploymentProfiles {
  const raw = env[PROFILES_ENV_VAR];
  if (raw === undefined || raw.trim() === '') return profiles;
  let overrides: unknown;
  try {
    overrides = JSON.parse(raw);
  } catch (error) {
    throw new DeploymentProfileError(
      `${PROFILES_ENV_VAR} is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (!isRecord(overrides)) {
    throw new DeploymentProfileError(
      `${PROFILES_ENV_VAR} must be a JSON object mapping profile keys to profile fields`,
    );
  }
  const merged: Record<string, unknown> = { ...profiles };
  for (const [key, override] of Object.entries(overrides)) {
    if (override === null) {
      delete merged[key];
    } else if (isRecord(override)) {
      const base = merged[key];
      merged[key] = isRecord(base) ? { ...base, ...override } : override;
    } else {
      throw new DeploymentProfileError(
        `${PROFILES_ENV_VAR}: profile "${key}" must be an object or null`,
        key,
      );
    }
  }
  return validateProfiles(merged);
}

export type ProfileChoiceSource = 'ship' | 'host' | 'stored' | 'fallback';

export interface ProfileChoice {
  key: string;
  /** Why this profile; `fallback` means nothing matched and the app should say so. */
  source: ProfileChoiceSource;
}

/**
 * the profile whose ship parameter is `ship`; else the current host's profile when
 * the host differs from the stored host; else the stored key (if it still names a profile);
 * else the host's profile; else `local`.
 *
 * Design (R-8.11, "unknown host: fallback not shown"): an unknown host with nothing stored
 * uses the `local` profile, and `source: 'fallback'` lets the caller warn in the console.
 * An unknown ship value is ignored like an absent one.
 */
export function chooseProfile(input: {
  ship: string | null;
  host: string;
  storedKey: string | null;
  storedHost: string | null;
  profiles: DeploymentProfiles;
}): ProfileChoice {
  const { profiles } = input;
  const host = input.host.toLowerCase();
  const entries = Object.entries(profiles);
  const ship = input.ship?.toLowerCase() ?? null;
  const byShip = ship === null ? undefined : entries.find(([, p]) => p.ship === ship);
  if (byShip) return { key: byShip[0], source: 'ship' };

  const byHost = entries.find(([, p]) => p.host === host || p.hostAliases.includes(host));
  const hostChanged = host !== (input.storedHost?.toLowerCase() ?? null);
  if (byHost && hostChanged) return { key: byHost[0], source: 'host' };
  if (input.storedKey !== null && profiles[input.storedKey] !== undefined) {
    return { key: input.storedKey, source: 'stored' };
  }
  if (byHost) return { key: byHost[0], source: 'host' };
  return { key: FALLBACK_PROFILE_KEY, source: 'fallback' };
}

/** the stored profile choice. */
export function readProfileChoice(storage: KeyValueStorage): {
  storedKey: string | null;
  storedHost: string | null;
} {
  return {
    storedKey: storage.getItem(RUM_CONFIG_KEY_KEY),
    storedHost: storage.getItem(RUM_CONFIG_HOST_KEY),
  };
}

/** persists the chosen profile key and the host it was chosen on. */
export function persistProfileChoice(storage: KeyValueStorage, key: string, host: string): void {
  storage.setItem(RUM_CONFIG_KEY_KEY, key);
  storage.setItem(RUM_CONFIG_HOST_KEY, host.toLowerCase());
}

/**
 * the stored backend override for a profile key. The stored value is a JSON object
 * `{ "<profile key>": "<absolute URL>" }`, or one absolute URL that applies to every profile.
 * Anything else (bad JSON, relative URL) is ignored.
 */
export function readBackendOverride(storage: KeyValueStorage, profileKey: string): string | null {
  const raw = storage.getItem(BACKEND_URL_OVERRIDE_KEY);
  if (raw === null) return null;
  if (isAbsoluteHttpUrl(raw)) return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    const value = isRecord(parsed) ? parsed[profileKey] : undefined;
    return typeof value === 'string' && isAbsoluteHttpUrl(value) ? value : null;
  } catch {
    return null;
  }
}

/** a valid override wins over the profile's backend; no trailing slash either way. */
export function backendAddress(profile: DeploymentProfile, override: string | null): string {
  const chosen = override !== null && isAbsoluteHttpUrl(override) ? override : profile.backendUrl;
  return chosen.replace(/\/+$/, '');
}

/**
 * options for the monitoring SDK's `init`. Rates a profile sets win over the spec
 * defaults. Tracing covers the backend address and the profile's extra URLs when the profile
 * enables tracing, and nothing otherwise.
 */
export function monitoringInitOptions(
  profile: DeploymentProfile,
  version: string,
  backendUrl: string = profile.backendUrl,
): RumInitConfiguration {
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
    ...(profile.intakeUrl === null ? {} : { proxy: profile.intakeUrl }),
  };
}

function claim(owners: Map<string, string>, key: string, field: string, values: string[]): void {
  for (const value of values) {
    const owner = owners.get(value);
    if (owner !== undefined && owner !== key) {
      throw new DeploymentProfileError(
        `Deployment profile "${key}": field "${field}" value "${value}" is already used by profile "${owner}"`,
        key,
        field,
      );
    }
    owners.set(value, key);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
