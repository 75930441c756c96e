// Deployment profiles: which monitoring config, flag service and shop backend a page uses
//
//
// The profiles live in ONE file, ../config/deployment-profiles.json, keyed by profile key.
// Operators add or change profiles without a rebuild through one environment variable, read
// once by the server at start-up:
//
//   SHOWROOM_PROFILES_JSON='{"local":{"sessionSampleRate":50},
//                            "mine":{"applicationId":"…","clientToken":"…","site":"datadoghq.eu",
//                                    "service":"showroom-web","env":"dev","ship":"mine",
//                                    "backendUrl":"https://api.mine.example.net"}}'
//
// Each entry is merged field by field over the profile of the same key (a new key adds a
// profile, `null` as the whole entry removes one); the result is validated like the file
// (profile-validation.ts does both, and checks a profile the browser fetches).
//
// Addresses (backendUrl, flagsUrl, intakeUrl, allowedTracingUrls) are absolute http(s) URLs or
// paths on the page's own origin ("/api"); the web server proxies /api to the api, so the
// `local` profile works under any host name and port. The browser resolves paths against
// `location.origin` at start-up (resolveProfileAddresses), because the monitoring SDK's `proxy`
// and the flag provider's `flaggingProxy` must be absolute.
//
// A document carries only the profile the server predicts for it plus a small index of every
// key's ship parameter and hosts (ProfileIndex); when the browser's choice is another profile
// (a stored one), it fetches that profile alone from the web server (PROFILE_PATH).
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
  /** Shop backend base address (the api): absolute, or a path on the page's origin ("/api"). */
  backendUrl: string;
  enableTracing: boolean;
  allowUntrustedEvents: boolean;
  /** Traced URLs besides the backend address (absolute, or paths), or null for none. */
  allowedTracingUrls: string[] | null;
  /** Monitoring site, e.g. datadoghq.com. */
  site: string;
  /**
   * Which OpenFeature provider the browser uses (README "Deployment profiles"): Datadog's
   * (precompute-assignments, the default) or the official OFREP web provider against the flag
   * service's OFREP routes (docs/decisions/016-ofrep.md).
   */
  flagProvider: FlagProviderKind;
  /**
   * The flag service address for that provider (absolute, or a path resolved at start-up): the
   * precompute-assignments endpoint (datadog; null uses the provider's default) or the OFREP base
   * URL the provider appends `/ofrep/v1/…` to (ofrep; null uses backendUrl).
   */
  flagsUrl: string | null;
  /**
   * Monitoring SDK `proxy` (the api's intake; absolute, or a path resolved at start-up); null
   * sends to the site's own intake.
   */
  intakeUrl: string | null;
}

export const FLAG_PROVIDER_KINDS = ['datadog', 'ofrep'] as const;
export type FlagProviderKind = (typeof FLAG_PROVIDER_KINDS)[number];

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

export type ProfileChoiceSource = 'ship' | 'host' | 'stored' | 'fallback';

export interface ProfileChoice {
  key: string;
  /** Why this profile; `fallback` means nothing matched and the app should say so. */
  source: ProfileChoiceSource;
}

/** What selects one profile: its ship parameter and its hosts (host and aliases), if any. */
export interface ProfileSelector {
  ship?: string;
  hosts?: readonly string[];
}

/**
 * Every profile key with what selects it: enough to choose a profile without the
 * profiles themselves. A document carries this instead of every profile.
 */
export type ProfileIndex = Readonly<Record<string, ProfileSelector>>;

/** A profile with its key: the one a document carries, or one fetched by key. */
export interface KeyedProfile {
  key: string;
  profile: DeploymentProfile;
}

/** Where the web server answers one validated profile as JSON (`/profiles/<key>.json`). */
export const PROFILE_PATH = '/profiles/';

export function profilePath(key: string): string {
  return `${PROFILE_PATH}${encodeURIComponent(key)}.json`;
}

/** The index of a profile map; selectors that are null or empty are left out. */
export function profileIndex(profiles: DeploymentProfiles): ProfileIndex {
  const index: Record<string, ProfileSelector> = {};
  for (const [key, profile] of Object.entries(profiles)) {
    const hosts = [...(profile.host === null ? [] : [profile.host]), ...profile.hostAliases];
    index[key] = {
      ...(profile.ship === null ? {} : { ship: profile.ship }),
      ...(hosts.length === 0 ? {} : { hosts }),
    };
  }
  return index;
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
  index: ProfileIndex;
}): ProfileChoice {
  const { index } = input;
  const host = input.host.toLowerCase();
  const entries = Object.entries(index);
  const ship = input.ship?.toLowerCase() ?? null;
  const byShip = ship === null ? undefined : entries.find(([, p]) => p.ship === ship);
  if (byShip) return { key: byShip[0], source: 'ship' };

  const byHost = entries.find(([, p]) => p.hosts?.includes(host) === true);
  const hostChanged = host !== (input.storedHost?.toLowerCase() ?? null);
  if (byHost && hostChanged) return { key: byHost[0], source: 'host' };
  if (input.storedKey !== null && Object.hasOwn(index, input.storedKey)) {
    return { key: input.storedKey, source: 'stored' };
  }
  if (byHost) return { key: byHost[0], source: 'host' };
  return { key: FALLBACK_PROFILE_KEY, source: 'fallback' };
}

/**
 * The profile the server can predict for a page without the browser's storage: the `ship`
 * parameter's, else the host's (the Host header), else `local` — what chooseProfile answers
 * on a first visit. The document carries this one; a browser with a different stored choice
 * fetches its own.
 */
export function predictProfile(
  profiles: DeploymentProfiles,
  index: ProfileIndex,
  input: { ship: string | null; host: string },
): KeyedProfile {
  const { key } = chooseProfile({ ...input, storedKey: null, storedHost: null, index });
  const profile = profiles[key];
  if (profile === undefined)
    throw new DeploymentProfileError(`Deployment profile "${key}" is missing`, key);
  return { key, profile };
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
 * The profile with every address absolute: paths ("/api") resolved against the page's origin
 * (`location.origin`). The monitoring SDK's `proxy` and the flag provider's `flaggingProxy`
 * are used as given and must be absolute; tracing must match the address the shop calls.
 */
export function resolveProfileAddresses(
  profile: DeploymentProfile,
  origin: string,
): DeploymentProfile {
  const resolve = (address: string) => resolveAddress(address, origin);
  return {
    ...profile,
    backendUrl: resolve(profile.backendUrl),
    flagsUrl: profile.flagsUrl === null ? null : resolve(profile.flagsUrl),
    intakeUrl: profile.intakeUrl === null ? null : resolve(profile.intakeUrl),
    allowedTracingUrls: profile.allowedTracingUrls?.map(resolve) ?? null,
  };
}

/**
 * the stored backend override for a profile key. The stored value is a JSON object
 * `{ "<profile key>": "<address>" }`, or one address that applies to every profile; an address
 * is an absolute http(s) URL or a path on the page's origin. Anything else (bad JSON, a
 * relative path without "/", another scheme) is ignored.
 */
export function readBackendOverride(storage: KeyValueStorage, profileKey: string): string | null {
  const raw = storage.getItem(BACKEND_URL_OVERRIDE_KEY);
  if (raw === null) return null;
  if (isProfileAddress(raw)) return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    const value = isRecord(parsed) ? parsed[profileKey] : undefined;
    return typeof value === 'string' && isProfileAddress(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * a valid override wins over the profile's backend; a path is resolved against the
 * page's origin; no trailing slash either way.
 */
export function backendAddress(
  profile: DeploymentProfile,
  override: string | null,
  origin: string,
): string {
  const chosen = override !== null && isProfileAddress(override) ? override : profile.backendUrl;
  return resolveAddress(chosen, origin).replace(/\/+$/, '');
}

/**
 * options for the monitoring SDK's `init`, from a profile whose addresses are
 * absolute (resolveProfileAddresses). Rates a profile sets win over the defaults. Tracing
 * covers the backend address and the profile's extra URLs when the profile enables tracing,
 * and nothing otherwise.
 */
/** What the monitoring SDK and the flag provider accept as `proxy` besides a URL. */
export type IntakeProxy = (request: { path: string; parameters: string }) => string;

/**
 * The SDKs' `proxy` for the profile's intake: the URL each SDK builds from a proxy URL,
 * `<intake>?ddforward=<path?parameters, encoded>`, given as a function. Given the URL itself,
 * each SDK copy (the monitoring SDK's and the flag provider's own browser-core) first appends a
 * hidden iframe to the page to borrow a pristine URL constructor, a layout inside the
 * start-up's longest tasks (docs/architecture.md "Performance"). `intakeUrl` is absolute after
 * resolveProfileAddresses; a path is resolved against the page once, on the first request.
 */
export function intakeProxy(intakeUrl: string): IntakeProxy {
  let base: string | undefined;
  return ({ path, parameters }) => {
    base ??= new URL(intakeUrl, globalThis.location?.href).href;
    const forwarded = parameters ? `${path}?${parameters}` : path;
    return `${base}?ddforward=${encodeURIComponent(forwarded)}`;
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
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

/** A placeholder origin: a path that stays on it is a path on whatever origin the page has. */
const SAME_ORIGIN_PROBE = 'http://same-origin.invalid';

/**
 * An absolute http(s) URL, or a path starting with "/" that stays on the page's origin
 * ("//host/x" and "/\host/x" would leave it).
 */
export function isProfileAddress(value: string): boolean {
  if (isAbsoluteHttpUrl(value)) return true;
  if (!value.startsWith('/')) return false;
  try {
    return new URL(value, SAME_ORIGIN_PROBE).origin === SAME_ORIGIN_PROBE;
  } catch {
    return false;
  }
}

/** An address as an absolute URL: absolute ones unchanged, paths on `origin`. */
function resolveAddress(address: string, origin: string): string {
  return isAbsoluteHttpUrl(address) ? address : new URL(address, origin).href;
}
