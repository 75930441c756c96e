// The browser start-up sequence ('init'), wired to injected inputs so it runs the same in a
// page, in Node tests and in a headless browser. The start-up layout builds a
// StartupEnvironment from `window` (browser-startup.ts) and calls runStartup once per page load.
import { detectBrowserFamily, type BrowserFamily } from '@showroom/contracts/browser-family';
import {
  backendAddress,
  chooseProfile,
  persistProfileChoice,
  readBackendOverride,
  readProfileChoice,
  resolveProfileAddresses,
  type DeploymentProfile,
  type KeyedProfile,
  type ProfileChoice,
  type ProfileChoiceSource,
  type ProfileIndex,
} from './deployment-profiles';
import {
  recordFeatureFlagEvaluations,
  rememberInstantPayVariant,
  routeExperiments,
  type FeatureFlagEvaluation,
  type FeatureFlagSink,
} from './experiments';
import {
  applyQuerySwitches,
  normalisePathname,
  parseQuerySwitches,
  type QuerySwitches,
} from './query-switches';
import {
  chooseMonitoringUser,
  chooseShopperListKind,
  chooseSliceIndex,
  fillIdentity,
  needsIdentity,
  readStoredIdentity,
  type IdentityField,
  type MonitoringUserChoice,
  type RandomSource,
} from './sample-identity';
import type { SampleShopper, ShopperListKind } from '@showroom/contracts/shopper';
import { daySliceSize } from './day-slice';
import { effectivePersona, type PersonaShopper } from './persona';
import { STARTUP_EXEMPT_PATH, type KeyValueStorage } from './storage-keys';
import { applyVersionStorage, type VersionRecord } from './version';
import type { MonitoringSetup } from '../monitoring/init-options';

export interface StartupEnvironment {
  url: URL;
  localStorage: KeyValueStorage;
  sessionStorage: KeyValueStorage;
  /** `document.cookie`. */
  cookies: string;
  /** Current time; only its UTC fields are used. */
  now: Date;
  random: RandomSource;
  /** `navigator.userAgent`; its browser family goes into the result. */
  userAgent: string;
  /** Every profile key with its ship parameter and hosts: what the choice reads. */
  profileIndex: ProfileIndex;
  /** The profile the document carries: the server's prediction from `ship` and the host. */
  documentProfile: KeyedProfile;
  /**
   * Fetches one profile by key; called only when the choice differs from `documentProfile`.
   * A rejection is reported through `warn` and the document's profile is used instead.
   */
  loadProfile: (key: string) => Promise<DeploymentProfile>;
  /** How many shoppers each sample list holds (the build's lists, R-3.6). */
  shopperListLengths: Readonly<Record<ShopperListKind, number>>;
  /**
   * Loads entry `index` of the slice of one shopper list for a UTC day of the week (R-4.12: 0
   * is Sunday); called only when the stored identity is incomplete.
   */
  loadSampleShopper: (
    kind: ShopperListKind,
    utcDay: number,
    index: number,
  ) => Promise<SampleShopper>;
  /**
   * Loads and starts the monitoring SDK with these options and user (set, or cleared when
   * anonymous). Not called when `webview` is present. A rejection is reported through
   * `warn` and start-up goes on.
   */
  startMonitoring?: (setup: MonitoringSetup, user: MonitoringUserChoice) => Promise<void> | void;
  /** Where route experiments are recorded (`window.DD_RUM` once monitoring runs). */
  flagSink: FeatureFlagSink;
  /** Console warnings; defaults to none. */
  warn?: (message: string, detail?: unknown) => void;
}

export interface StartupResult {
  switches: QuerySwitches;
  profileKey: string;
  profileSource: ProfileChoiceSource;
  /** The chosen profile with every address absolute (paths resolved on the page's origin). */
  profile: DeploymentProfile;
  /** Absolute backend base address after the stored override, no trailing slash. */
  backendUrl: string;
  /** The stored identity, or null when the shopper list could not be loaded. */
  identity: SampleShopper | null;
  /**
   * Who this load shops as: the signed-in account, else the identity with its loyalty standing
   * (decision 008). The monitoring user and the flag subject are built from it.
   */
  persona: PersonaShopper | null;
  /** Identity fields filled on this load; empty when a stored identity was reused. */
  identityFilled: readonly IdentityField[];
  /** List the identity was drawn from on this load, or null when none was drawn. */
  shopperList: ShopperListKind | null;
  version: VersionRecord;
  monitoringUser: MonitoringUserChoice;
  /** True once `startMonitoring` resolved; false in a webview, without it, or on failure. */
  monitoringStarted: boolean;
  experiments: readonly FeatureFlagEvaluation[];
  /** From `userAgent`, for the flag evaluation context. */
  browserFamily: BrowserFamily;
}

/**
 * Runs the start-up steps in order: query switches → profile → identity → version →
 * monitoring → route experiments. Returns null on /scenarios, which has no start-up
 * check. The flag provider (step 6) is set up by the caller from the result.
 */
export async function runStartup(env: StartupEnvironment): Promise<StartupResult | null> {
  const pathname = normalisePathname(env.url.pathname);
  if (pathname === STARTUP_EXEMPT_PATH || pathname.startsWith(`${STARTUP_EXEMPT_PATH}/`)) {
    return null;
  }
  const warn = env.warn ?? (() => {});

  // 1. Query switches (R-4.1 … ).
  const switches = parseQuerySwitches(env.url.searchParams, env.url.pathname);
  applyQuerySwitches(switches, env.localStorage, env.sessionStorage);

  // 2. Deployment profile, persisted with the host; its addresses made absolute.
  const host = env.url.host;
  const chosen = await chooseAndLoadProfile(env, switches.ship, warn);
  const { choice } = chosen;
  if (chosen.persist) persistProfileChoice(env.localStorage, choice.key, host);
  const origin = env.url.origin;
  const profile = resolveProfileAddresses(chosen.profile, origin);
  const backendUrl = backendAddress(
    profile,
    readBackendOverride(env.localStorage, choice.key),
    origin,
  );

  // 3. Sample identity (R-4.10 … ): an entry of the day's slice of the list is drawn and
  // loaded only when something is missing.
  let identity: SampleShopper | null = readStoredIdentity(env.localStorage);
  let identityFilled: readonly IdentityField[] = [];
  let shopperList: ShopperListKind | null = null;
  if (needsIdentity(env.localStorage)) {
    const kind = chooseShopperListKind({ loyalty: switches.loyalty === true, random: env.random });
    try {
      const size = daySliceSize(env.shopperListLengths[kind]);
      const index = chooseSliceIndex(size, env.random);
      const shopper = await env.loadSampleShopper(kind, env.now.getUTCDay(), index);
      const filled = fillIdentity(env.localStorage, () => shopper);
      identity = filled.identity;
      identityFilled = filled.filled;
      shopperList = kind;
    } catch (error) {
      // The shop works without an identity; this session is then anonymous (see below).
      warn('Failed to load the sample shopper list:', error);
    }
  }

  // 4. Version, isBeta, errorSHA.
  const version = applyVersionStorage(env.localStorage, env.now);

  // The persona the api last named (an account, or the identity with its tier; decision 008).
  const persona = effectivePersona(env.localStorage, identity);

  // 5. Monitoring user and SDK start unless in a webview.
  const monitoringUser = chooseMonitoringUser({
    random: env.random,
    cookies: env.cookies,
    storedIdentity: persona,
    rumdev: switches.rumdev,
  });
  let monitoringStarted = false;
  if (!switches.webview && env.startMonitoring) {
    try {
      await env.startMonitoring({ profile, version: version.version, backendUrl }, monitoringUser);
      monitoringStarted = true;
    } catch (error) {
      warn('Failed to start browser monitoring:', error);
    }
  }

  // Route experiments, recorded through the injected sink.
  const experiments = routeExperiments(pathname, env.random);
  rememberInstantPayVariant(experiments, env.sessionStorage);
  recordFeatureFlagEvaluations(experiments, env.flagSink);

  return {
    switches,
    profileKey: choice.key,
    profileSource: choice.source,
    profile,
    backendUrl,
    identity,
    persona,
    identityFilled,
    shopperList,
    version,
    monitoringUser,
    monitoringStarted,
    experiments,
    browserFamily: detectBrowserFamily(env.userAgent),
  };
}

/**
 * The profile choice and the chosen profile: the document's when the choice is the
 * server's prediction, else fetched by key. When the fetch fails the document's profile is
 * used (reported as a fallback) and the stored choice is kept for the next load.
 */
async function chooseAndLoadProfile(
  env: StartupEnvironment,
  ship: string | null,
  warn: (message: string, detail?: unknown) => void,
): Promise<{ choice: ProfileChoice; profile: DeploymentProfile; persist: boolean }> {
  const choice = chooseProfile({
    ship,
    host: env.url.host,
    ...readProfileChoice(env.localStorage),
    index: env.profileIndex,
  });
  if (choice.source === 'fallback') {
    warn(`Unknown host "${env.url.host}": using the "${choice.key}" deployment profile`);
  }
  const fromDocument = env.documentProfile;
  if (choice.key === fromDocument.key) {
    return { choice, profile: fromDocument.profile, persist: true };
  }
  try {
    return { choice, profile: await env.loadProfile(choice.key), persist: true };
  } catch (error) {
    warn(
      `Failed to load the "${choice.key}" deployment profile; using "${fromDocument.key}":`,
      error,
    );
    return {
      choice: { key: fromDocument.key, source: 'fallback' },
      profile: fromDocument.profile,
      persist: false,
    };
  }
}
