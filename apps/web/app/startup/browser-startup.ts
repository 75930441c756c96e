import { loadAndStartFeatureFlags } from '../flags/load-flags';
import { loadAndStartMonitoring } from '../monitoring/load-monitoring';
import {
  profilePath,
  type DeploymentProfile,
  type KeyedProfile,
  type ProfileIndex,
} from './deployment-profiles';
import {
  isSampleShopper,
  type SampleShopper,
  type ShopperListKind,
} from '@showroom/contracts/shopper';
import shopperListLengths from 'virtual:shopper-list-lengths';
import { sampleShopperPath } from './day-slice';
import { runStartup, type StartupResult } from './orchestrator';

/** One profile from the web server, checked like the server checks its file. */
async function loadProfile(key: string): Promise<DeploymentProfile> {
  const path = profilePath(key);
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  // The checks load only on this path: a document carries the profile it predicts.
  const { validateProfile } = await import('./profile-validation');
  return validateProfile(key, await response.json());
}

/** The sample shopper the start-up drew, from the web server (routes/sample-shopper.ts). */
async function loadSampleShopper(
  kind: ShopperListKind,
  utcDay: number,
  index: number,
): Promise<SampleShopper> {
  const path = sampleShopperPath(kind, utcDay, index);
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  const shopper: unknown = await response.json();
  if (!isSampleShopper(shopper)) throw new Error(`GET ${path} answered no sample shopper`);
  return shopper;
}

/** What the document carries for start-up (the root loader's data). */
export interface DocumentStartupData {
  profileIndex: ProfileIndex;
  documentProfile: KeyedProfile;
}

let started: Promise<StartupResult | null> | undefined;
let sessionStarted: Promise<StartupResult | null> | undefined;

/**
 * Wires the pure start-up sequence to the real browser, once per page load: later client-side
 * navigations reuse the first result.
 */
export function startBrowserSession({
  profileIndex,
  documentProfile,
}: DocumentStartupData): Promise<StartupResult | null> {
  sessionStarted ??= runStartup({
    url: new URL(window.location.href),
    localStorage: window.localStorage,
    sessionStorage: window.sessionStorage,
    cookies: document.cookie,
    now: new Date(),
    random: Math.random,
    userAgent: navigator.userAgent,
    profileIndex,
    documentProfile,
    loadProfile,
    // Only the lists' lengths are in the bundle; the one shopper drawn is fetched, and only
    // when an identity must be filled (build-plugins/shopper-lists.ts).
    shopperListLengths,
    loadSampleShopper,
    startMonitoring: loadAndStartMonitoring,
    flagSink: {
      addFeatureFlagEvaluation: (key, value) => window.DD_RUM?.addFeatureFlagEvaluation(key, value),
    },
    warn: (message, detail) => console.warn(message, detail ?? ''),
  });
  started ??= sessionStarted.then(async (result) => {
    if (result) await loadAndStartFeatureFlags(result);
    return result;
  });
  return started;
}

/**
 * The start-up result as soon as the identity, profile and monitoring steps have run, before the
 * flag provider's step (which in demo mode waits up to 10 s for the flag service, R-4.18): what
 * the shop's own calls need (the backend address and the shopper), so add to cart and the cart
 * work on the flags' defaults while the flag service is slow or down (README "Faults").
 * Call after startBrowserSession.
 */
export function browserSessionStarted(): Promise<StartupResult | null> {
  if (!sessionStarted) throw new Error('browserSessionStarted before startBrowserSession');
  return sessionStarted;
}
