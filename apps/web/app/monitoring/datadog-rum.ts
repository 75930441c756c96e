import { datadogRum, type User } from '@datadog/browser-rum';
import type { MonitoringUserChoice } from '../startup/sample-identity';
import { createFlagMemory } from './flag-memory';
import { monitoringInitOptions, type MonitoringSetup } from './init-options';
import { followPersona, monitoringUser, monitoringUserPlugin } from './monitoring-user';
import { redactSearchEvent } from './search-privacy';
import { effectivePersona, PERSONA_EVENT } from '../startup/persona';
import { readStoredIdentity } from '../startup/sample-identity';
import { PERSONA_KEY, SCENARIO_STORAGE_KEY } from '../startup/storage-keys';
import { trafficTag } from './traffic-tag';
import { SCENARIO_ID_PATTERN, SCENARIO_QUERY_KEY } from '@showroom/contracts/scenario-tag';

declare global {
  interface Window {
    DD_RUM?: Pick<typeof datadogRum, 'addFeatureFlagEvaluation'> & typeof datadogRum;
  }
}

/**
 * The monitoring SDK's own chunk (its file name carries `datadog-rum`, which ad-block lists
 * match). Sets or clears the user, then starts RUM with the profile's options, so the first view
 * and the early resources and long tasks already carry the user.
 */
export function startDatadogRum(setup: MonitoringSetup, user: MonitoringUserChoice): void {
  const options = monitoringInitOptions(setup);
  const flags = createFlagMemory();
  const usr = monitoringUser(user);
  if (usr === null) datadogRum.clearUser();
  else datadogRum.setUser(usr);
  // @datadog/browser-rum-core/src/boot/preStartRum.ts replays setUser after the first view.
  const scenario = scenarioTag(new URLSearchParams(location.search), sessionStorage);
  if (scenario !== null) datadogRum.setGlobalContextProperty('scenario', scenario);
  const traffic = trafficTag(sessionStorage);
  if (traffic) {
    // Flat, so the inspector's timeline details show them.
    datadogRum.setGlobalContextProperty('traffic', traffic.profile);
    datadogRum.setGlobalContextProperty('traffic_run', traffic.run);
  }
  const userPlugin = monitoringUserPlugin(usr);
  followPersonaChanges(user, (next) => {
    userPlugin.setUser(next);
    if (next === null) datadogRum.clearUser();
    else datadogRum.setUser(next);
  });
  datadogRum.init({
    ...options,
    plugins: [userPlugin.plugin],
    beforeSend: (event) => {
      redactSearchEvent(event);
      // A new view (client-side navigation) starts with no flags: record this page's again.
      const again = flags.viewSeen(event.view.id);
      if (again.length > 0) {
        queueMicrotask(() => {
          for (const [key, value] of again) datadogRum.addFeatureFlagEvaluation(key, value);
        });
      }
      return true;
    },
  });
  // Its own task (R-9.5: recording is started manually): the recorder's first full snapshot of
  // the page then does not lengthen the SDK's start into one long main-thread task.
  setTimeout(() => datadogRum.startSessionReplayRecording(), 0);
  // The flag provider and the route experiments report evaluations to window.DD_RUM
  // (docs/decisions/005-monitoring-intake-and-inspector.md); the flag memory sees them on the way.
  window.DD_RUM = {
    ...datadogRum,
    addFeatureFlagEvaluation: (key, value) => {
      flags.record(key, value);
      datadogRum.addFeatureFlagEvaluation(key, value);
    },
  };
}

/**
 * A sign-in, a sign-out or a new tier on this page (or in another tab) changes the monitoring
 * user from the next event on (decision 008).
 */
function followPersonaChanges(
  start: MonitoringUserChoice,
  apply: (user: User | null) => void,
): void {
  const update = () => {
    const next = followPersona(
      start,
      effectivePersona(localStorage, readStoredIdentity(localStorage)),
    );
    if (next !== undefined) apply(next);
  };
  window.addEventListener(PERSONA_EVENT, update);
  window.addEventListener('storage', (event) => {
    if (event.key === PERSONA_KEY) update();
  });
}

/**
 * The scenario whose link opened this browser session (docs/requirements.md ): the
 * `scenario` query switch, kept in session storage so every page of the session carries it as
 * the monitoring's global context `scenario`, which the scenario proofs count by.
 */
export function scenarioTag(search: URLSearchParams, storage: Storage): string | null {
  const fromQuery = search.get(SCENARIO_QUERY_KEY);
  if (fromQuery !== null && SCENARIO_ID_PATTERN.test(fromQuery)) {
    storage.setItem(SCENARIO_STORAGE_KEY, fromQuery);
    return fromQuery;
  }
  const stored = storage.getItem(SCENARIO_STORAGE_KEY);
  return stored !== null && SCENARIO_ID_PATTERN.test(stored) ? stored : null;
}
