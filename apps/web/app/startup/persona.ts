// The one persona (docs/decisions/008-accounts-and-persona.md): what the api says this browser
// shops as — a signed-in account, or the sample shopper with their loyalty standing — kept in
// local storage so the next page load starts monitoring and flags with it, and announced to
// this page so the monitoring user and the flag context follow a sign-in or a new tier at once.
import { useMemo, useSyncExternalStore } from 'react';
import type { BoundShopper, SessionView } from '@showroom/contracts/session';
import type { SampleShopper } from '@showroom/contracts/shopper';
import { PERSONA_KEY, type KeyValueStorage } from './storage-keys';

export type Persona = BoundShopper;

/** A sample shopper identity, with the persona's standing once the api has told it. */
export type PersonaShopper = SampleShopper &
  Partial<Pick<Persona, 'tier' | 'loyaltyMember' | 'list'>>;

/** Fired on `window` when this page learns a different persona. */
export const PERSONA_EVENT = 'showroom:persona';

const TIERS = new Set(['none', 'bronze', 'silver', 'gold']);
const LISTS = new Set(['standard', 'loyalty', 'demo', 'account']);

/** The stored persona, or null when none is stored or it is malformed. */
export function readPersona(storage: KeyValueStorage): Persona | null {
  const raw = storage.getItem(PERSONA_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Persona> | null;
    if (
      value &&
      typeof value.id === 'string' &&
      typeof value.name === 'string' &&
      typeof value.email === 'string' &&
      typeof value.team === 'string' &&
      typeof value.list === 'string' &&
      LISTS.has(value.list) &&
      typeof value.tier === 'string' &&
      TIERS.has(value.tier) &&
      typeof value.loyaltyMember === 'boolean' &&
      typeof value.useNewCheckoutFlow === 'boolean' &&
      (typeof value.useDiscount === 'boolean' || value.useDiscount === null)
    ) {
      return value as Persona;
    }
  } catch {
    // Not JSON: treated as absent.
  }
  return null;
}

/**
 * Who this load shops as: a stored account persona wins. A sample shopper stays the stored
 * identity (its name and values) with the loyalty standing the api last gave for that
 * id; without one, outside the programme — what the api says of a new shopper, so the first
 * session answer does not change the flag context.
 */
export function effectivePersona(
  storage: KeyValueStorage,
  identity: SampleShopper | null,
): PersonaShopper | null {
  const persona = readPersona(storage);
  if (persona?.list === 'account') return persona;
  if (!identity) return null;
  const known = persona?.id === identity.id ? persona : null;
  return {
    ...identity,
    tier: known?.tier ?? 'none',
    loyaltyMember: known?.loyaltyMember ?? false,
    ...(known ? { list: known.list } : {}),
  };
}

/** Stores what a session answer says; tells this page when the persona changed. */
export function rememberPersona(
  view: Pick<SessionView, 'shopper'>,
  storage: KeyValueStorage = localStorage,
  target: Pick<EventTarget, 'dispatchEvent'> | null = typeof window === 'undefined' ? null : window,
): void {
  const before = storage.getItem(PERSONA_KEY);
  const after = view.shopper ? JSON.stringify(view.shopper) : null;
  if (before === after) return;
  if (after === null) storage.removeItem(PERSONA_KEY);
  else storage.setItem(PERSONA_KEY, after);
  target?.dispatchEvent(new Event(PERSONA_EVENT));
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === PERSONA_KEY || event.key === null) onChange();
  };
  window.addEventListener(PERSONA_EVENT, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(PERSONA_EVENT, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored persona's JSON (stable between changes, so React can compare it). */
const snapshot = () => localStorage.getItem(PERSONA_KEY);

/** The persona for components (the navbar's account link); null during server rendering. */
export function usePersona(): Persona | null {
  const raw = useSyncExternalStore(subscribe, snapshot, () => null);
  return useMemo(
    () =>
      raw === null ? null : readPersona({ getItem: () => raw, setItem() {}, removeItem() {} }),
    [raw],
  );
}
