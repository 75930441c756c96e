// Checking deployment profiles: the profile file and SHOWROOM_PROFILES_JSON on
// the server, and a profile the browser fetches when its stored choice is not the one the
// document carries (browser-startup.ts, which loads this module only then). The format is
// described at the top of deployment-profiles.ts.
import defaultProfilesJson from '../config/deployment-profiles.json';
import {
  DeploymentProfileError,
  FLAG_PROVIDER_KINDS,
  isProfileAddress,
  isRecord,
  PROFILES_ENV_VAR,
  SAMPLE_RATE_FIELDS,
  type DeploymentEnv,
  type DeploymentProfile,
  type DeploymentProfiles,
  type FlagProviderKind,
} from './deployment-profiles';
import { FALLBACK_PROFILE_KEY } from './storage-keys';

/**
 * Checks one profile and returns it normalised. Required (R-5.2, plus the shop backend):
 * applicationId, clientToken, site, service, env, backendUrl. Optional, with defaults:
 * orgName (the key), orgId/ship/host/allowedTracingUrls/flagsUrl/intakeUrl (null), flagProvider
 * (datadog),
 * hostAliases ([]), enableTracing and allowUntrustedEvents (false), sample rates (R-9.5
 * defaults at init). Addresses are absolute http(s) URLs or paths starting with "/" (see the
 * top of this file). Throws DeploymentProfileError naming the key and the field.
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
  const address = (field: string, raw: string): string => {
    if (!isProfileAddress(raw)) {
      fail(field, 'must be an absolute http(s) URL or a path starting with "/"');
    }
    return raw;
  };
  const addressList = (field: string): string[] | null => {
    const v = value[field];
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v) || !v.every((item) => typeof item === 'string')) {
      return fail(field, 'must be a list of URLs or null');
    }
    return v.map((item: string) => address(field, item));
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
  if (intakeUrl !== null && /[?#]/.test(address('intakeUrl', intakeUrl))) {
    fail('intakeUrl', 'must not have a query string');
  }
  const flagsUrl = optionalString('flagsUrl');
  if (flagsUrl !== null) address('flagsUrl', flagsUrl);
  const flagProvider = optionalString('flagProvider') ?? 'datadog';
  if (!(FLAG_PROVIDER_KINDS as readonly string[]).includes(flagProvider)) {
    fail('flagProvider', `must be one of ${FLAG_PROVIDER_KINDS.join(', ')}`);
  }

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
    backendUrl: address('backendUrl', requiredString('backendUrl')),
    enableTracing: optionalBoolean('enableTracing'),
    allowUntrustedEvents: optionalBoolean('allowUntrustedEvents'),
    allowedTracingUrls: addressList('allowedTracingUrls'),
    site,
    flagProvider: flagProvider as FlagProviderKind,
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
