import { FLAG_KEYS } from '../startup/storage-keys';

export type DemoFeature = keyof typeof FLAG_KEYS;

/** The five demo features: their local-storage override key and their flag in the flag service. */
export const DEMO_FEATURES: readonly {
  feature: DemoFeature;
  storageKey: string;
  flagKey: string;
  label: string;
}[] = [
  {
    feature: 'newCheckoutFlow',
    storageKey: FLAG_KEYS.newCheckoutFlow,
    flagKey: 'new_checkout_flow',
    label: 'New checkout flow',
  },
  {
    feature: 'checkoutCountrySelector',
    storageKey: FLAG_KEYS.checkoutCountrySelector,
    flagKey: 'checkout_country_selector_first',
    label: 'Country selector first',
  },
  {
    feature: 'showLoyaltyProgram',
    storageKey: FLAG_KEYS.showLoyaltyProgram,
    flagKey: 'show_loyalty_program',
    label: 'Loyalty programme',
  },
  {
    feature: 'showPayments',
    storageKey: FLAG_KEYS.showPayments,
    flagKey: 'show_payments',
    label: 'Saved payments',
  },
  {
    feature: 'showLoAF',
    storageKey: FLAG_KEYS.showLoAF,
    flagKey: 'show_loaf',
    label: 'Long-animation-frame demo',
  },
];

export type FeatureSource = 'override' | 'flag' | 'default';

export interface EffectiveFeature {
  value: boolean;
  source: FeatureSource;
}

/**
 * docs/architecture.md "Feature flags": a local-storage override set by a query switch wins, else the
 * flag service's value for this shopper, else false.
 */
export function effectiveFeatureValue(
  override: boolean | null,
  flagValue: boolean | null | undefined,
): EffectiveFeature {
  if (override !== null) return { value: override, source: 'override' };
  if (typeof flagValue === 'boolean') return { value: flagValue, source: 'flag' };
  return { value: false, source: 'default' };
}
