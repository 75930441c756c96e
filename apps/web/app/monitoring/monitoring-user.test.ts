import type { RumPluginOnInitOptions } from '@datadog/browser-rum';
import { describe, expect, it } from 'vitest';
import { DEMO_USER } from '@showroom/contracts/shopper';
import { JOHN_DOE } from '../startup/sample-identity';
import { followPersona, monitoringUser, monitoringUserPlugin } from './monitoring-user';
import type { PersonaShopper } from '../startup/persona';

type AssembleHook = Parameters<RumPluginOnInitOptions['registerAssembleEventHook']>[0];

function registeredHooks(
  plugin: ReturnType<typeof monitoringUserPlugin>['plugin'],
): AssembleHook[] {
  const hooks: AssembleHook[] = [];
  void plugin.onInit?.({
    initConfiguration: {} as RumPluginOnInitOptions['initConfiguration'],
    publicApi: {} as RumPluginOnInitOptions['publicApi'],
    registerAssembleEventHook: (hook) => {
      hooks.push(hook);
      return { unregister: () => {} };
    },
  });
  return hooks;
}

describe('monitoring user', () => {
  it('R-4.14 an anonymous start has no user; the others have theirs', () => {
    expect(monitoringUser({ kind: 'anonymous' })).toBeNull();
    expect(monitoringUser({ kind: 'demo', user: DEMO_USER })).toEqual({ ...DEMO_USER });
    expect(monitoringUser({ kind: 'placeholder', user: JOHN_DOE })).toEqual({ ...JOHN_DOE });
  });

  it('R-4.14 the plugin puts the user on every event it is asked to assemble', () => {
    const hooks = registeredHooks(monitoringUserPlugin({ ...DEMO_USER }).plugin);
    expect(hooks).toHaveLength(1);
    const params = (eventType: 'view' | 'resource') =>
      ({ eventType, startTime: 0 }) as unknown as Parameters<AssembleHook>[0];
    expect(hooks[0]!(params('view'))).toEqual({ type: 'view', usr: { ...DEMO_USER } });
    expect(hooks[0]!(params('resource'))).toEqual({ type: 'resource', usr: { ...DEMO_USER } });
  });

  it('keeps its own copy of the user', () => {
    const user = { id: 'ab12', name: 'A' };
    const hook = registeredHooks(monitoringUserPlugin(user).plugin)[0]!;
    user.id = 'changed';
    const params = { eventType: 'view', startTime: 0 } as unknown as Parameters<AssembleHook>[0];
    expect(hook(params)).toEqual({ type: 'view', usr: { id: 'ab12', name: 'A' } });
  });

  it('decision 008: setUser changes the user of the next events; null leaves them without', () => {
    const { plugin, setUser } = monitoringUserPlugin(null);
    const hook = registeredHooks(plugin)[0]!;
    const params = { eventType: 'action', startTime: 0 } as unknown as Parameters<AssembleHook>[0];
    expect(hook(params)).toEqual({ type: 'action' });
    setUser({ id: 'acc_1', tier: 'gold' });
    expect(hook(params)).toEqual({ type: 'action', usr: { id: 'acc_1', tier: 'gold' } });
  });
});

describe('the monitoring user follows the persona (decision 008)', () => {
  const sample: PersonaShopper = {
    ...DEMO_USER,
    id: 'a1b2',
    list: 'standard',
    tier: 'none',
    loyaltyMember: false,
  };
  const account: PersonaShopper = { ...sample, id: 'acc_x', list: 'account', tier: 'gold' };

  it('gives an account its tier and marks it, without the list', () => {
    expect(monitoringUser({ kind: 'account', user: account })).toEqual({
      id: 'acc_x',
      name: DEMO_USER.name,
      email: DEMO_USER.email,
      team: DEMO_USER.team,
      useDiscount: DEMO_USER.useDiscount,
      useNewCheckoutFlow: false,
      tier: 'gold',
      loyaltyMember: false,
      account: true,
    });
  });

  it('signs in over any start but rumdev, and returns to the sample persona on sign-out', () => {
    expect(followPersona({ kind: 'anonymous' }, account)).toMatchObject({ id: 'acc_x' });
    expect(followPersona({ kind: 'placeholder', user: JOHN_DOE }, account)).toMatchObject({
      id: 'acc_x',
    });
    expect(followPersona({ kind: 'demo', user: DEMO_USER }, account)).toBeUndefined();
    expect(followPersona({ kind: 'anonymous' }, sample)).toBeUndefined();
    expect(followPersona({ kind: 'account', user: account }, sample)).toMatchObject({
      id: 'a1b2',
      tier: 'none',
    });
    expect(followPersona({ kind: 'sample', user: sample }, null)).toBeNull();
  });
});
