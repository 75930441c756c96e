import { datadogRum, type RumInitConfiguration } from '@datadog/browser-rum';
import type { MonitoringUserChoice } from '../startup/sample-identity';

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
  datadogRum.init(options);
  if (user.kind === 'anonymous') {
    datadogRum.clearUser();
  } else {
    datadogRum.setUser({ ...user.user });
  }
  datadogRum.startSessionReplayRecording();
  // The flag provider reports evaluations to window.DD_RUM (INTEGRATION-NOTES.md).
  window.DD_RUM = datadogRum;
}
