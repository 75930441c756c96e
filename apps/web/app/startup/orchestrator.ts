// The browser start-up sequence ('init', ARCHITECTURE.md "Start-up in the browser"), wired to
// injected inputs so it runs the same in a page, in Node tests and in a headless browser.
// The layout's client middleware builds a StartupEnvironment from `window` and calls
// runStartup once per page load.
import { detectBrowserFamily, type BrowserFamily } from './browser-family';
import {
  backendAddress,
  chooseProfile,
  monitoringInitOptions,
  persistProfileChoice,
  readBackendOverride,
  readProfileChoice,
  type DeploymentProfile,
  type DeploymentProfiles,
  type ProfileChoiceSource,
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
  chooseFromDaySlice,
  chooseMonitoringUser,
  chooseShopperListKind,
  fillIdentity,
  needsIdentity,
  readStoredIdentity,
  type IdentityField,
  type MonitoringUserChoice,
  type RandomSource,
  type SampleShopper,
  type ShopperListKind,
} from './sample-identity';
import { STARTUP_EXEMPT_PATH, type KeyValueStorage } from './storage-keys';
import { applyVersionStorage, type VersionRecord } from './version';
import type { RumInitConfiguration } from '@datadog/browser-rum';

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
  profiles: DeploymentProfiles;
  /** Loads one shopper list; called only when the stored identity is incomplete. */
  loadShoppers: (kind: ShopperListKind) => Promise<readonly SampleShopper[]>;
  /**
   * Loads and starts the monitoring SDK with these options and user (set, or cleared when
   * anonymous). Not called when `webview` is present. A rejection is reported through
   * `warn` and start-up goes on.
   */
  startMonitoring?: (
    options: RumInitConfiguration,
    user: MonitoringUserChoice,
  ) => Promise<void> | void;
  /** Where route experiments are recorded (`window.DD_RUM` once monitoring runs). */
  flagSink: FeatureFlagSink;
  /** Console warnings; defaults to none. */
  warn?: (message: string, detail?: unknown) => void;
}

export interface StartupResult {
  switches: QuerySwitches;
  profileKey: string;
  profileSource: ProfileChoiceSource;
  profile: DeploymentProfile;
  /** Backend base address after the stored override. */
  backendUrl: string;
  /** The stored identity, or null when the shopper list could not be loaded. */
  identity: SampleShopper | null;
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
 * Runs the start-up steps in ARCHITECTURE.md order: query switches → profile → identity →
 * version → monitoring → route experiments. Returns null on /scenarios, which has no
 * start-up check. The flag provider (step 6) is set up by the caller from the result.
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

  // 2. Deployment profile, persisted with the host.
  const host = env.url.host;
  const choice = chooseProfile({
    ship: switches.ship,
    host,
    ...readProfileChoice(env.localStorage),
    profiles: env.profiles,
  });
  const profile = env.profiles[choice.key];
  if (profile === undefined) throw new Error(`Deployment profile "${choice.key}" is missing`);
  if (choice.source === 'fallback') {
    warn(`Unknown host "${host}": using the "${choice.key}" deployment profile`);
  }
  persistProfileChoice(env.localStorage, choice.key, host);
  const backendUrl = backendAddress(profile, readBackendOverride(env.localStorage, choice.key));

  // 3. Sample identity (R-4.10 … ); the list is loaded only when something is missing.
  let identity: SampleShopper | null = readStoredIdentity(env.localStorage);
  let identityFilled: readonly IdentityField[] = [];
  let shopperList: ShopperListKind | null = null;
  if (needsIdentity(env.localStorage)) {
    const kind = chooseShopperListKind({ loyalty: switches.loyalty === true, random: env.random });
    try {
      const list = await env.loadShoppers(kind);
      const filled = fillIdentity(env.localStorage, () =>
        chooseFromDaySlice(list, env.now, env.random),
      );
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

  // 5. Monitoring user and SDK start unless in a webview.
  const monitoringUser = chooseMonitoringUser({
    random: env.random,
    cookies: env.cookies,
    storedIdentity: identity,
    rumdev: switches.rumdev,
  });
  let monitoringStarted = false;
  if (!switches.webview && env.startMonitoring) {
    try {
      await env.startMonitoring(
        monitoringInitOptions(profile, version.version, backendUrl),
        monitoringUser,
      );
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
    identityFilled,
    shopperList,
    version,
    monitoringUser,
    monitoringStarted,
    experiments,
    browserFamily: detectBrowserFamily(env.userAgent),
  };
}
