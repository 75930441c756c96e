import { datadogRum, type RumInitConfiguration } from '@datadog/browser-rum';
import type { MonitoringUserChoice } from '../startup/sample-identity';
import { createFlagMemory } from './flag-memory';
import { monitoringUser, monitoringUserPlugin } from './monitoring-user';

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
export function startDatadogRum(options: RumInitConfiguration, user: MonitoringUserChoice): void {
  const flags = createFlagMemory();
  const usr = monitoringUser(user);
  if (usr === null) datadogRum.clearUser();
  else datadogRum.setUser(usr);
  // @datadog/browser-rum-core/src/boot/preStartRum.ts replays setUser after the first view.
  const plugins = usr === null ? [] : [monitoringUserPlugin(usr)];
  datadogRum.init({
    ...options,
    plugins: [...(options.plugins ?? []), ...plugins],
    beforeSend: (event, context) => {
      // A new view (client-side navigation) starts with no flags: record this page's again.
      const again = flags.viewSeen(event.view.id);
      if (again.length > 0) {
        queueMicrotask(() => {
          for (const [key, value] of again) datadogRum.addFeatureFlagEvaluation(key, value);
        });
      }
      return options.beforeSend?.(event, context) ?? true;
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
