/**
 * A sample shopper record (docs/requirements.md ): what the browser stores as its identity
 * and the api binds a session to. `useDiscount` is null only for the fixed demo user.
 */
export interface SampleShopper {
  /** Short lowercase hex string. */
  id: string;
  name: string;
  email: string;
  team: string;
  useDiscount: boolean | null;
  useNewCheckoutFlow: boolean;
}

/** The two committed sample shopper lists, and the demo user outside them. */
export type ShopperListKind = 'standard' | 'loyalty';
export type ShopperListName = ShopperListKind | 'demo';

/** the user `rumdev` forces. Name and e-mail are ours (the product rules leave them out). */
export const DEMO_USER: Readonly<SampleShopper> = Object.freeze({
  id: 'dec0de01',
  name: 'demo.user',
  email: 'demo.user@example.com',
  team: 'Dev',
  useDiscount: null,
  useNewCheckoutFlow: false,
});

/** Whether a parsed JSON value is a sample shopper record. */
export function isSampleShopper(value: unknown): value is SampleShopper {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.id === 'string' &&
    typeof record.name === 'string' &&
    typeof record.email === 'string' &&
    typeof record.team === 'string' &&
    (typeof record.useDiscount === 'boolean' || record.useDiscount === null) &&
    typeof record.useNewCheckoutFlow === 'boolean'
  );
}
