// The monitoring user on every event of a page load, the first view included, and
// the persona it follows after a sign-in, a sign-out or a new loyalty tier (decision 008).
import type { RumPlugin, User } from '@datadog/browser-rum';
import type { PersonaShopper } from '../startup/persona';
import type { MonitoringUserChoice } from '../startup/sample-identity';

/**
 * The `usr` of a persona: id, name, e-mail, team and the targeting attributes, plus `tier` and
 * `loyaltyMember` once known and `account: true` for a signed-in account.
 */
export function personaUser(persona: Readonly<PersonaShopper>): User {
  const { list, ...user } = persona;
  return list === 'account' ? { ...user, account: true } : { ...user };
}

/** The user the monitoring SDK is given on this start; null for an anonymous one. */
export function monitoringUser(choice: MonitoringUserChoice): User | null {
  switch (choice.kind) {
    case 'anonymous':
      return null;
    case 'sample':
    case 'account':
      return personaUser(choice.user);
    default:
      return { ...choice.user };
  }
}

/**
 * The user after the persona changed on this page, or `undefined` to keep the current one.
 * `rumdev`'s demo user stays (R-2.7); a signed-in account is always its own user; after a
 * sign-out a start that had a sample shopper (or an account) goes back to the sample persona;
 * an anonymous or placeholder start stays so until an account signs in.
 */
export function followPersona(
  start: MonitoringUserChoice,
  persona: PersonaShopper | null,
): User | null | undefined {
  if (start.kind === 'demo') return undefined;
  if (persona?.list === 'account') return personaUser(persona);
  if (start.kind === 'anonymous' || start.kind === 'placeholder') return undefined;
  return persona ? personaUser(persona) : null;
}

/**
 * A user set before `init()` waits in the SDK's pre-start buffer, which it replays (in a
 * microtask) only after its start has assembled the first view and handed over the errors it
 * kept from before `init()`, so those would go out without `usr`. This plugin's assemble hook,
 * registered at `init()` before any event is assembled, puts the current user on every event;
 * `setUser` changes it together with the SDK's own user context.
 */
export function monitoringUserPlugin(user: User | null): {
  plugin: RumPlugin;
  setUser(next: User | null): void;
} {
  let usr = user === null ? null : { ...user };
  return {
    plugin: {
      name: 'showroom-monitoring-user',
      onInit: ({ registerAssembleEventHook }) => {
        registerAssembleEventHook(({ eventType }) =>
          usr === null ? { type: eventType } : { type: eventType, usr: { ...usr } },
        );
      },
    },
    setUser(next) {
      usr = next === null ? null : { ...next };
    },
  };
}
