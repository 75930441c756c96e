// The sample shopper identity and the monitoring user (R-3.5 …,
// … ). Every function takes its clock, random source and storage explicitly.
import { DEMO_USER, type SampleShopper, type ShopperListKind } from '@showroom/contracts/shopper';
import type { PersonaShopper } from './persona';
import {
  ANONYMOUS_CHANCE,
  IDENTITY_KEYS,
  JOHN_DOE_COOKIE,
  SHOPPER_LIST_KINDS,
  type KeyValueStorage,
} from './storage-keys';

export type IdentityField = keyof typeof IDENTITY_KEYS;

/** A random source: each call returns a number in [0, 1), like `Math.random`. */
export type RandomSource = () => number;

export interface PlaceholderUser {
  name: string;
  email: string;
}

/** the fixed placeholder identity used while the `isJohnDoe` cookie exists. */
export const JOHN_DOE: Readonly<PlaceholderUser> = Object.freeze({
  name: 'John Doe',
  email: 'john.doe@example.com',
});

export type MonitoringUserChoice =
  | { kind: 'anonymous' }
  | { kind: 'placeholder'; user: Readonly<PlaceholderUser> }
  | { kind: 'sample'; user: Readonly<PersonaShopper> }
  | { kind: 'account'; user: Readonly<PersonaShopper> }
  | { kind: 'demo'; user: Readonly<SampleShopper> };

const IDENTITY_FIELDS = Object.keys(IDENTITY_KEYS) as readonly IdentityField[];

/** with the loyalty option on, either list at random (the second is the loyalty list). */
export function chooseShopperListKind(options: {
  loyalty: boolean;
  random: RandomSource;
}): ShopperListKind {
  if (!options.loyalty) return 'standard';
  return SHOPPER_LIST_KINDS[pickIndex(SHOPPER_LIST_KINDS.length, options.random)] ?? 'standard';
}

/**
 * the position of a random entry in a day's slice of `size` entries (day-slice.ts); the
 * browser then fetches that one entry (browser-startup.ts).
 */
export function chooseSliceIndex(size: number, random: RandomSource): number {
  if (!(size >= 1)) throw new Error('The sample shopper list is empty');
  return pickIndex(size, random);
}

/** lower-cased, first space replaced by a dot ("Mary Ann Lee" → "mary.ann lee"). */
export function normaliseShopperName(name: string): string {
  return name.toLowerCase().replace(' ', '.');
}

/** True when any identity key is missing; an empty string counts as missing. */
export function needsIdentity(storage: KeyValueStorage): boolean {
  return missingIdentityFields(storage).length > 0;
}

export interface FillIdentityResult {
  /** The identity as stored after filling. */
  identity: SampleShopper;
  /** Fields that were missing and are now filled; empty when a stored identity was reused. */
  filled: readonly IdentityField[];
}

/**
 * every missing identity key is filled from ONE record and saved; present keys are
 * kept. `choose` is called only when something is missing, so a caller can defer loading a
 * shopper list until it is needed (check `needsIdentity` first when loading is asynchronous).
 */
export function fillIdentity(
  storage: KeyValueStorage,
  choose: () => SampleShopper,
): FillIdentityResult {
  const missing = missingIdentityFields(storage);
  if (missing.length > 0) {
    const record = choose();
    for (const field of missing) {
      storage.setItem(IDENTITY_KEYS[field], serialiseField(record, field));
    }
  }
  const identity = readStoredIdentity(storage);
  if (identity === null) throw new Error('Identity is incomplete after filling');
  return { identity, filled: missing };
}

/** The stored identity, or `null` while any key is missing. Booleans are "true"/"false". */
export function readStoredIdentity(storage: KeyValueStorage): SampleShopper | null {
  if (needsIdentity(storage)) return null;
  const read = (field: IdentityField): string => storage.getItem(IDENTITY_KEYS[field]) ?? '';
  const discount = read('useDiscount');
  return {
    id: read('id'),
    name: read('name'),
    email: read('email'),
    team: read('team'),
    useDiscount: discount === 'true' ? true : discount === 'false' ? false : null,
    useNewCheckoutFlow: read('useNewCheckoutFlow') === 'true',
  };
}

/** True when the `document.cookie`-style string holds a cookie of that name (any value). */
export function hasCookie(cookies: string, name: string): boolean {
  return cookies.split(';').some((part) => {
    const pair = part.trim();
    const eq = pair.indexOf('=');
    return (eq === -1 ? pair : pair.slice(0, eq).trim()) === name;
  });
}

/**
 * on each start, 1 in 5 anonymous; else the placeholder while the `isJohnDoe` cookie
 * exists; else the sample identity.
 *
 * Decisions: `rumdev` wins over everything, including the anonymous draw — whoever
 * asks for the demo user must find every one of their sessions under it. `rumdev` changes the
 * monitoring user only; the stored identity (and the flag context built from it) is untouched,
 * so removing the switch gives the shopper back. With no stored identity (the shopper list
 * could not be loaded) the session is anonymous. `random` is drawn exactly once unless
 * `rumdev` is on. A signed-in account (decision 008) is always its own user: the anonymous
 * draw and the placeholder model visitors nobody knows.
 */
export function chooseMonitoringUser(options: {
  random: RandomSource;
  cookies: string;
  storedIdentity: PersonaShopper | null;
  rumdev: boolean;
}): MonitoringUserChoice {
  if (options.rumdev) return { kind: 'demo', user: DEMO_USER };
  const anonymous = options.random() < ANONYMOUS_CHANCE;
  if (options.storedIdentity?.list === 'account') {
    return { kind: 'account', user: options.storedIdentity };
  }
  if (anonymous) return { kind: 'anonymous' };
  if (hasCookie(options.cookies, JOHN_DOE_COOKIE)) return { kind: 'placeholder', user: JOHN_DOE };
  if (options.storedIdentity === null) return { kind: 'anonymous' };
  return { kind: 'sample', user: options.storedIdentity };
}

function missingIdentityFields(storage: KeyValueStorage): IdentityField[] {
  return IDENTITY_FIELDS.filter((field) => {
    const value = storage.getItem(IDENTITY_KEYS[field]);
    return value === null || value === '';
  });
}

function serialiseField(shopper: SampleShopper, field: IdentityField): string {
  switch (field) {
    case 'name':
      return normaliseShopperName(shopper.name);
    case 'useDiscount':
      return shopper.useDiscount === null ? 'null' : String(shopper.useDiscount);
    case 'useNewCheckoutFlow':
      return String(shopper.useNewCheckoutFlow);
    default:
      return shopper[field];
  }
}

/** An index in [0, length) from a [0, 1) random value, clamped against sources returning 1. */
function pickIndex(length: number, random: RandomSource): number {
  return Math.min(length - 1, Math.floor(random() * length));
}
