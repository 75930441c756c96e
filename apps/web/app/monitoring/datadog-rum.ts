import { datadogRum, type RumInitConfiguration } from '@datadog/browser-rum';
import type { MonitoringUserChoice } from '../startup/sample-identity';
import { createFlagMemory } from './flag-memory';

declare global {
  interface Window {
    DD_RUM?: Pick<typeof datadogRum, 'addFeatureFlagEvaluation'> & typeof datadogRum;
  }
}

/**
 * The monitoring SDK's own chunk (its file name carries `datadog-rum`, which ad-block lists
 * match). Starts RUM with the profile's options and sets or clears the user.
 */
export function startDatadogRum(options: RumInitConfiguration, user: MonitoringUserChoice): void {
  const flags = createFlagMemory();
  datadogRum.init({
    ...options,
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
  if (user.kind === 'anonymous') {
    datadogRum.clearUser();
  } else {
    datadogRum.setUser({ ...user.user });
  }
  datadogRum.startSessionReplayRecording();
  // The flag provider and the route experiments report evaluations to window.DD_RUM
  // (INTEGRATION-NOTES.md); the flag memory sees them on the way.
  window.DD_RUM = {
    ...datadogRum,
    addFeatureFlagEvaluation: (key, value) => {
      flags.record(key, value);
      datadogRum.addFeatureFlagEvaluation(key, value);
    },
  };
}
