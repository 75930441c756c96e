import { DEMO_USER } from '@showroom/contracts/shopper';
import { describe, expect, it, vi } from 'vitest';
import {
  chooseMonitoringUser,
  chooseShopperListKind,
  chooseSliceIndex,
  fillIdentity,
  hasCookie,
  JOHN_DOE,
  needsIdentity,
  normaliseShopperName,
  readStoredIdentity,
} from './sample-identity';
import { daySliceSize, sliceOfDay } from './day-slice';
import { IDENTITY_KEYS } from './storage-keys';
import { createMemoryStorage } from './test-support/memory-storage';
import { scriptedRandom, seededRandom } from './test-support/seeded-random';
import { createShopper, createShopperList } from './test-support/shoppers';

const DRAWS = 100_000;

const FULL_IDENTITY = {
  [IDENTITY_KEYS.id]: '0badc0de',
  [IDENTITY_KEYS.name]: 'grace.hopper',
  [IDENTITY_KEYS.email]: 'grace.hopper@example.net',
  [IDENTITY_KEYS.team]: 'engineering',
  [IDENTITY_KEYS.useDiscount]: 'true',
  [IDENTITY_KEYS.useNewCheckoutFlow]: 'false',
};

describe('chooseSliceIndex and chooseShopperListKind', () => {
  const standard = createShopperList(350, 's');

  it('R-4.12 for each weekday, 100,000 draws all fall in that day slice and reach all 50 entries', () => {
    const random = seededRandom();
    for (let day = 0; day < 7; day += 1) {
      const slice = new Set(standard.slice(day * 50, day * 50 + 50));
      const seen = new Set<unknown>();
      let outside = 0;
      for (let i = 0; i < DRAWS; i += 1) {
        const shopper = sliceOfDay(standard, day)[chooseSliceIndex(daySliceSize(350), random)];
        if (!shopper || !slice.has(shopper)) outside += 1;
        seen.add(shopper);
      }
      expect(outside).toBe(0);
      expect(seen.size).toBe(50);
    }
  });

  it('R-4.12 random 0 takes the first entry of the slice and 0.999… the last', () => {
    expect(chooseSliceIndex(50, scriptedRandom(0))).toBe(0);
    expect(chooseSliceIndex(50, scriptedRandom(0.9999999))).toBe(49);
    expect(sliceOfDay(standard, 3)[49]?.id).toBe('s199');
  });

  it('R-4.12 an empty list is an error, not an undefined shopper', () => {
    expect(() => chooseSliceIndex(daySliceSize(0), scriptedRandom(0.5))).toThrow(/empty/);
  });

  it('R-4.13 without the loyalty option the standard list is used and no coin is tossed', () => {
    const random = scriptedRandom();
    expect(chooseShopperListKind({ loyalty: false, random })).toBe('standard');
    expect(random.remaining()).toBe(0);
  });

  it('R-4.13 with the loyalty option the loyalty (second) list is chosen about half the time', () => {
    const random = seededRandom(7);
    let loyal = 0;
    for (let i = 0; i < DRAWS; i += 1) {
      if (chooseShopperListKind({ loyalty: true, random }) === 'loyalty') loyal += 1;
    }
    expect(Math.abs(loyal / DRAWS - 0.5)).toBeLessThan(0.01);
  });
});

describe('fillIdentity', () => {
  it('R-4.10 R-4.11 fills all six keys from one record; the name is lower-cased with a dot', () => {
    const storage = createMemoryStorage();
    const choose = vi.fn(() =>
      createShopper({
        id: 'c0ffee01',
        name: 'Ada Lovelace',
        email: 'ada.lovelace@example.org',
        team: 'design',
        useDiscount: true,
        useNewCheckoutFlow: true,
      }),
    );
    const result = fillIdentity(storage, choose);
    expect(choose).toHaveBeenCalledTimes(1);
    expect(storage.snapshot()).toEqual({
      user_id: 'c0ffee01',
      user_name: 'ada.lovelace',
      user_email: 'ada.lovelace@example.org',
      user_team: 'design',
      user_use_discount: 'true',
      user_use_new_checkout_flow: 'true',
    });
    expect(result.filled).toHaveLength(6);
    expect(result.identity).toEqual({
      id: 'c0ffee01',
      name: 'ada.lovelace',
      email: 'ada.lovelace@example.org',
      team: 'design',
      useDiscount: true,
      useNewCheckoutFlow: true,
    });
  });

  it('R-4.10 a fully stored identity is reused without choosing a record', () => {
    const storage = createMemoryStorage(FULL_IDENTITY);
    const choose = vi.fn(() => createShopper());
    const result = fillIdentity(storage, choose);
    expect(choose).not.toHaveBeenCalled();
    expect(result.filled).toEqual([]);
    expect(storage.snapshot()).toEqual(FULL_IDENTITY);
    expect(result.identity.name).toBe('grace.hopper');
  });

  it('R-4.10 only missing keys are filled, all from the same record; stored keys are kept', () => {
    const {
      [IDENTITY_KEYS.email]: _email,
      [IDENTITY_KEYS.team]: _team,
      ...partial
    } = FULL_IDENTITY;
    const storage = createMemoryStorage({ ...partial, [IDENTITY_KEYS.id]: '' });
    const choose = vi.fn(() =>
      createShopper({ id: 'feedf00d', email: 'x.y@example.com', team: 'sales' }),
    );
    const result = fillIdentity(storage, choose);
    expect(choose).toHaveBeenCalledTimes(1);
    expect(result.filled).toEqual(['id', 'email', 'team']);
    expect(storage.snapshot()).toEqual({
      ...FULL_IDENTITY,
      [IDENTITY_KEYS.id]: 'feedf00d',
      [IDENTITY_KEYS.email]: 'x.y@example.com',
      [IDENTITY_KEYS.team]: 'sales',
    });
  });

  it('R-4.11 only the first space becomes a dot; a stored name is not rewritten', () => {
    expect(normaliseShopperName('Mary Ann De Luca')).toBe('mary.ann de luca');
    expect(normaliseShopperName('Cher')).toBe('cher');
    const storage = createMemoryStorage({ ...FULL_IDENTITY, [IDENTITY_KEYS.name]: 'Grace Hopper' });
    expect(fillIdentity(storage, () => createShopper()).identity.name).toBe('Grace Hopper');
  });

  it('R-3.7 a null useDiscount is stored as "null" and read back as null', () => {
    const storage = createMemoryStorage();
    fillIdentity(storage, () => DEMO_USER);
    expect(storage.getItem(IDENTITY_KEYS.useDiscount)).toBe('null');
    expect(storage.getItem(IDENTITY_KEYS.useNewCheckoutFlow)).toBe('false');
    expect(readStoredIdentity(storage)?.useDiscount).toBeNull();
  });

  it('R-3.8 needsIdentity is true while any key is missing or empty', () => {
    expect(needsIdentity(createMemoryStorage())).toBe(true);
    expect(needsIdentity(createMemoryStorage(FULL_IDENTITY))).toBe(false);
    for (const key of Object.values(IDENTITY_KEYS)) {
      expect(needsIdentity(createMemoryStorage({ ...FULL_IDENTITY, [key]: '' }))).toBe(true);
    }
    expect(readStoredIdentity(createMemoryStorage({ [IDENTITY_KEYS.id]: 'x' }))).toBeNull();
  });
});

describe('chooseMonitoringUser', () => {
  const identity = createShopper({ id: 'abcdef12' });
  const base = { cookies: '', storedIdentity: identity, rumdev: false };

  it('R-4.14 a draw under 1/5 makes the session anonymous, even with the John Doe cookie', () => {
    expect(chooseMonitoringUser({ ...base, random: scriptedRandom(0.1999) })).toEqual({
      kind: 'anonymous',
    });
    expect(
      chooseMonitoringUser({ ...base, cookies: 'isJohnDoe=1', random: scriptedRandom(0) }),
    ).toEqual({ kind: 'anonymous' });
  });

  it('R-4.14 otherwise the isJohnDoe cookie selects the placeholder identity', () => {
    const choice = chooseMonitoringUser({
      ...base,
      cookies: 'theme=dark; isJohnDoe=true; cart=3',
      random: scriptedRandom(0.2),
    });
    expect(choice).toEqual({ kind: 'placeholder', user: JOHN_DOE });
    expect(JOHN_DOE).toEqual({ name: 'John Doe', email: 'john.doe@example.com' });
  });

  it('R-4.14 otherwise the stored sample identity is used', () => {
    expect(chooseMonitoringUser({ ...base, random: scriptedRandom(0.5) })).toEqual({
      kind: 'sample',
      user: identity,
    });
  });

  it('R-4.14 without a stored identity the session is anonymous', () => {
    expect(
      chooseMonitoringUser({ ...base, storedIdentity: null, random: scriptedRandom(0.9) }),
    ).toEqual({ kind: 'anonymous' });
  });

  it('R-4.14 R-9.3 about 1 in 5 of 100,000 starts are anonymous', () => {
    const random = seededRandom(99);
    let anonymous = 0;
    for (let i = 0; i < DRAWS; i += 1) {
      if (chooseMonitoringUser({ ...base, random }).kind === 'anonymous') anonymous += 1;
    }
    expect(Math.abs(anonymous / DRAWS - 0.2)).toBeLessThan(0.01);
  });

  it('R-2.7 R-3.7 rumdev forces the demo user over the anonymous draw and the cookie', () => {
    const random = scriptedRandom();
    const choice = chooseMonitoringUser({ ...base, cookies: 'isJohnDoe=1', rumdev: true, random });
    expect(choice).toEqual({ kind: 'demo', user: DEMO_USER });
    expect(random.remaining()).toBe(0);
  });

  it('R-3.7 the demo user has a fixed hex id, team Dev, useDiscount null, no new checkout', () => {
    expect(DEMO_USER.id).toMatch(/^[0-9a-f]+$/);
    expect(DEMO_USER).toMatchObject({ team: 'Dev', useDiscount: null, useNewCheckoutFlow: false });
    expect(DEMO_USER.email).toMatch(/@example\.com$/);
  });
});

describe('hasCookie', () => {
  it('R-4.14 finds a cookie by exact name, with or without a value', () => {
    expect(hasCookie('isJohnDoe=1', 'isJohnDoe')).toBe(true);
    expect(hasCookie('a=1;isJohnDoe', 'isJohnDoe')).toBe(true);
    expect(hasCookie('a=1; isJohnDoe=', 'isJohnDoe')).toBe(true);
    expect(hasCookie('', 'isJohnDoe')).toBe(false);
    expect(hasCookie('notIsJohnDoe=1; isJohnDoeX=1; x=isJohnDoe', 'isJohnDoe')).toBe(false);
  });
});
