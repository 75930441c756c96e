import { DatadogProvider } from '@datadog/openfeature-browser';
import {
  OpenFeature,
  ProviderStatus,
  type Client,
  type Hook,
  type Provider,
} from '@openfeature/web-sdk';
import type { StartupResult } from '../startup/orchestrator';
import { readStoredIdentity } from '../startup/sample-identity';
import { effectivePersona, PERSONA_EVENT } from '../startup/persona';
import { IDENTITY_KEYS, PERSONA_KEY } from '../startup/storage-keys';
import { connectFlagStore } from './connect-flag-store';
import { buildEvaluationContext } from './evaluation-context';
import { FLAG_INIT_ERROR, FLAG_SYNC_WARNING } from './flag-messages';
import { flagProviderOptions, isDemoMode, waitForProviderReady } from './flag-provider';
import { INSTANT_PAY_ALLOCATION } from '@showroom/contracts/experiment-constants';
import { buildFlagSubject } from '@showroom/contracts/flag-subject';
import { INSTANT_PAY_FLAG } from '@showroom/contracts/monitoring-constants';
import { configureFlagReporting, logExposure, sendTrackingEvent } from './flag-reporting';
import { connectTracker } from './flag-tracking';
import { markFlagStatus } from './flag-store';

// The flag provider chunk (`flag-provider-*.js`, apps/web/bundle-budget.json): the OpenFeature web
// SDK, the Datadog provider and their start-up, loaded after hydration by load-flags.ts. Pages
// read flags through the flag store (flag-store.ts), which this chunk feeds. A profile with
// `flagProvider: "ofrep"` loads the OFREP web provider as a chunk of its own instead.

/** The evaluation context last handed to OpenFeature, as JSON. */
let lastContextKey = '';

declare global {
  interface Window {
    showroomFlags?: Client;
  }
}

/**
 * docs/architecture.md start-up step 6: the OpenFeature provider and context. A failure is logged
 * with the spec's message and the shop goes on with defaults; in demo mode start-up waits
 * for READY (R-4.18: poll 100 ms, give up after 10 s).
 */
export async function startFeatureFlags(result: StartupResult): Promise<void> {
  try {
    // in a webview nothing is reported, exposures and flag evaluations included.
    const telemetry = !result.switches.webview;
    startFlagReporting(result, telemetry);
    const provider = await createProvider(result, telemetry);
    const context = buildEvaluationContext(result.persona, result.browserFamily);
    lastContextKey = JSON.stringify(context);
    await OpenFeature.setContext(context);
    const client = OpenFeature.getClient();
    if (telemetry && result.profile.flagProvider === 'ofrep') client.addHooks(ofrepReportingHook);
    connectTracker((name, details) => client.track(name, details));
    // A console handle for presenters: `await showroomFlags.getBooleanDetails('show_payments', false)`.
    window.showroomFlags = client;
    const ready = OpenFeature.setProviderAndWait(provider).then(
      () => markFlagStatus('ready'),
      (error: unknown) => {
        markFlagStatus('error');
        console.error(FLAG_INIT_ERROR, error);
      },
    );
    // Only now, with the Datadog provider set (NOT_READY until its first fetch answers), do pages
    // evaluate through the client; until then they render their defaults.
    connectFlagStore(client);
    watchIdentityChanges(result);
    // The shop's session may have named a new persona before this chunk listened (its calls do
    // not wait for flags, README "Faults"): catch up once.
    void syncFlagContext(result);
    if (!isDemoMode(result.profile)) return;
    await Promise.race([
      ready,
      waitForProviderReady({
        isReady: () => client.providerStatus === ProviderStatus.READY,
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

/**
 * Where exposures and tracking events go (flag-reporting.ts; nothing in a webview, R-1.1), and
 * this load's instant_pay draw as an exposure: it is the shop's own experiment, not a flag the
 * provider evaluates, and experiment results count it like one (docs/architecture.md
 * "Feature flags").
 */
function startFlagReporting(result: StartupResult, reporting: boolean): void {
  configureFlagReporting({
    intakeUrl: reporting ? result.profile.intakeUrl : null,
    backendUrl: reporting ? result.backendUrl : null,
    service: result.profile.service,
  });
  const subject = buildFlagSubject(result.persona, result.browserFamily);
  for (const { key, value } of result.experiments) {
    if (key !== INSTANT_PAY_FLAG || !subject.targetingKey) continue;
    logExposure({
      flagKey: key,
      allocationKey: INSTANT_PAY_ALLOCATION,
      variantKey: value,
      subject: { id: subject.targetingKey, attributes: subject.attributes },
    });
  }
}

/**
 * The profile's provider (README "Deployment profiles"), with OpenFeature `track()` sending to
 * the flag service's tracking route (neither provider implements it; OFREP defines no route).
 */
async function createProvider(result: StartupResult, telemetry: boolean): Promise<Provider> {
  const { profile } = result;
  let provider: Provider;
  if (profile.flagProvider === 'ofrep') {
    const { OFREPWebProvider } = await import('./flag-provider-ofrep');
    provider = new OFREPWebProvider({
      baseUrl: profile.flagsUrl ?? result.backendUrl,
      // Flags as the service serves them now: a presenter's change shows on the next load
      // (a stored answer would be served first and refreshed behind the page).
      cacheMode: 'network-first',
    });
  } else {
    provider = new DatadogProvider(
      flagProviderOptions(profile, result.version.version, { telemetry }),
    );
  }
  if (telemetry) {
    provider.track = (name, context, details) =>
      sendTrackingEvent(name, context.targetingKey, details);
  }
  return provider;
}

/**
 * With the OFREP provider, what the Datadog provider does itself: each evaluation with a variant
 * goes to monitoring (`feature_flags` on RUM events), and one the flag service marks `doLog`
 * (its metadata) is logged as an exposure for experiment results.
 */
const ofrepReportingHook: Hook = {
  after(hookContext, details) {
    if (details.variant == null) return;
    window.DD_RUM?.addFeatureFlagEvaluation(details.flagKey, details.variant);
    const { targetingKey, ...attributes } = hookContext.context;
    const allocationKey = details.flagMetadata['allocationKey'];
    if (details.flagMetadata['doLog'] !== true || !targetingKey) return;
    if (typeof allocationKey !== 'string' || allocationKey === '') return;
    logExposure({
      flagKey: details.flagKey,
      allocationKey,
      variantKey: details.variant,
      subject: { id: targetingKey, attributes },
    });
  },
};

/**
 * Re-syncs the evaluation context with the stored identity and the persona the api named
 * (R-8.6 warning on failure).
 */
export async function syncFlagContext(result: StartupResult): Promise<void> {
  try {
    const persona = effectivePersona(localStorage, readStoredIdentity(localStorage));
    const context = buildEvaluationContext(persona, result.browserFamily);
    // An unchanged context (the persona re-announced) is no reason to fetch assignments again.
    const key = JSON.stringify(context);
    if (key === lastContextKey) return;
    lastContextKey = key;
    await OpenFeature.setContext(context);
  } catch (error) {
    console.warn(FLAG_SYNC_WARNING, error);
  }
}

/**
 * Another tab that changes the stored identity changes this tab's flag context too; so does a
 * new persona on this page (a sign-in, a new tier; decision 008).
 */
function watchIdentityChanges(result: StartupResult): void {
  const keys = new Set<string>([...Object.values(IDENTITY_KEYS), PERSONA_KEY]);
  window.addEventListener('storage', (event) => {
    if (event.key !== null && keys.has(event.key)) void syncFlagContext(result);
  });
  window.addEventListener(PERSONA_EVENT, () => void syncFlagContext(result));
}
