// The monitoring user on every event of a page load, the first view included.
import type { RumPlugin, User } from '@datadog/browser-rum';
import type { MonitoringUserChoice } from '../startup/sample-identity';

/** The user the monitoring SDK is given on this start; null for an anonymous one. */
export function monitoringUser(choice: MonitoringUserChoice): User | null {
  return choice.kind === 'anonymous' ? null : { ...choice.user };
}

/**
 * A user set before `init()` waits in the SDK's pre-start buffer, which it replays (in a
 * microtask) only after its start has assembled the first view and handed over the errors it
 * kept from before `init()`, so those would go out without `usr`. This plugin's assemble hook,
 * registered at `init()` before any event is assembled, puts the user on every event of the
 * page load; the user is chosen once per load, so it agrees with the SDK's own user context.
 */
export function monitoringUserPlugin(user: User): RumPlugin {
  const usr = { ...user };
  return {
    name: 'showroom-monitoring-user',
    onInit: ({ registerAssembleEventHook }) => {
      registerAssembleEventHook(({ eventType }) => ({ type: eventType, usr: { ...usr } }));
    },
  };
}
