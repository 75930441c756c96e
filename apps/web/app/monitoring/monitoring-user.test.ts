import type { RumPluginOnInitOptions } from '@datadog/browser-rum';
import { describe, expect, it } from 'vitest';
import { DEMO_USER } from '@showroom/contracts/shopper';
import { JOHN_DOE } from '../startup/sample-identity';
import { monitoringUser, monitoringUserPlugin } from './monitoring-user';

type AssembleHook = Parameters<RumPluginOnInitOptions['registerAssembleEventHook']>[0];

function registeredHooks(plugin: ReturnType<typeof monitoringUserPlugin>): AssembleHook[] {
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
    const hooks = registeredHooks(monitoringUserPlugin({ ...DEMO_USER }));
    expect(hooks).toHaveLength(1);
    const params = (eventType: 'view' | 'resource') =>
      ({ eventType, startTime: 0 }) as unknown as Parameters<AssembleHook>[0];
    expect(hooks[0]!(params('view'))).toEqual({ type: 'view', usr: { ...DEMO_USER } });
    expect(hooks[0]!(params('resource'))).toEqual({ type: 'resource', usr: { ...DEMO_USER } });
  });

  it('keeps its own copy of the user', () => {
    const user = { id: 'ab12', name: 'A' };
    const hook = registeredHooks(monitoringUserPlugin(user))[0]!;
    user.id = 'changed';
    const params = { eventType: 'view', startTime: 0 } as unknown as Parameters<AssembleHook>[0];
    expect(hook(params)).toEqual({ type: 'view', usr: { id: 'ab12', name: 'A' } });
  });
});
