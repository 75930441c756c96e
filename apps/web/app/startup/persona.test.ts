import { describe, expect, it } from 'vitest';
import type { BoundShopper } from '@showroom/contracts/session';
import { effectivePersona, PERSONA_EVENT, readPersona, rememberPersona } from './persona';
import { chooseMonitoringUser } from './sample-identity';
import { PERSONA_KEY } from './storage-keys';
import { createMemoryStorage } from './test-support/memory-storage';

const identity = {
  id: 'a1b2c3',
  name: 'ada.lovelace',
  email: 'ada@example.com',
  team: 'design',
  useDiscount: false,
  useNewCheckoutFlow: false,
};
const sample: BoundShopper = { ...identity, list: 'standard', tier: 'silver', loyaltyMember: true };
const account: BoundShopper = { ...sample, id: 'acc_1', list: 'account', tier: 'gold' };

function recorder() {
  const events: string[] = [];
  return { events, dispatchEvent: (event: Event) => (events.push(event.type), true) };
}

describe('persona (decision 008)', () => {
  it('stores what the session says and announces only a change', () => {
    const storage = createMemoryStorage();
    const target = recorder();
    rememberPersona({ shopper: account }, storage, target);
    rememberPersona({ shopper: account }, storage, target);
    expect(readPersona(storage)).toEqual(account);
    rememberPersona({ shopper: null }, storage, target);
    expect(storage.getItem(PERSONA_KEY)).toBeNull();
    expect(target.events).toEqual([PERSONA_EVENT, PERSONA_EVENT]);
  });

  it.each(['not json', '{"id":"x"}', JSON.stringify({ ...account, tier: 'platinum' })])(
    'reads %s as no persona',
    (raw) => {
      expect(readPersona(createMemoryStorage({ [PERSONA_KEY]: raw }))).toBeNull();
    },
  );

  it('prefers a signed-in account, adds the tier to the same sample shopper, else the identity', () => {
    const with_ = (persona: BoundShopper) =>
      createMemoryStorage({ [PERSONA_KEY]: JSON.stringify(persona) });
    expect(effectivePersona(with_(account), identity)).toEqual(account);
    expect(effectivePersona(with_(sample), identity)).toEqual(sample);
    // The identity's own name stays; the api's record adds only the standing.
    expect(effectivePersona(with_({ ...sample, name: 'Ada Lovelace' }), identity)).toEqual(sample);
    // A persona of another sample shopper (the identity was reset) is not this one.
    expect(effectivePersona(with_({ ...sample, id: 'ffff' }), identity)).toEqual({
      ...identity,
      tier: 'none',
      loyaltyMember: false,
    });
    expect(effectivePersona(createMemoryStorage(), null)).toBeNull();
  });

  it('makes a signed-in account the monitoring user whatever the anonymous draw says', () => {
    const draw = () => 0; // would be anonymous
    expect(
      chooseMonitoringUser({
        random: draw,
        cookies: 'isJohnDoe=1',
        storedIdentity: account,
        rumdev: false,
      }),
    ).toEqual({ kind: 'account', user: account });
    expect(
      chooseMonitoringUser({ random: draw, cookies: '', storedIdentity: sample, rumdev: false }),
    ).toEqual({ kind: 'anonymous' });
    expect(
      chooseMonitoringUser({ random: draw, cookies: '', storedIdentity: account, rumdev: true })
        .kind,
    ).toBe('demo');
  });
});
