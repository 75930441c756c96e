// Small factories for sample shoppers and lists in tests.
import type { SampleShopper } from '@showroom/contracts/shopper';

export function createShopper(overrides: Partial<SampleShopper> = {}): SampleShopper {
  return {
    id: 'a1b2c3d4',
    name: 'Ada Lovelace',
    email: 'ada.lovelace@example.com',
    team: 'engineering',
    useDiscount: false,
    useNewCheckoutFlow: false,
    ...overrides,
  };
}

/** `count` shoppers whose id encodes their index: "s000", "s001", … */
export function createShopperList(count: number, prefix = 's'): SampleShopper[] {
  return Array.from({ length: count }, (_, i) =>
    createShopper({ id: `${prefix}${String(i).padStart(3, '0')}`, name: `Shopper ${prefix}${i}` }),
  );
}
