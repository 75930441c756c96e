import type { MonitoringUserChoice } from '../startup/sample-identity';
import type { MonitoringSetup } from './init-options';

/** Shown when the monitoring SDK cannot load (usually an ad blocker). */
export const ADBLOCKER_ALERT = 'Please disable your adblocker and refresh the page.';

/** Loads the monitoring chunk after the page is interactive; alerts when it cannot load. */
export async function loadAndStartMonitoring(
  setup: MonitoringSetup,
  user: MonitoringUserChoice,
): Promise<void> {
  const rum = await import('./datadog-rum').catch((error: unknown) => {
    window.alert(ADBLOCKER_ALERT);
    throw error;
  });
  rum.startDatadogRum(setup, user);
}
