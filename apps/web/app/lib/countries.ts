/**
 * Countries the shop ships to, as the api lists them (apps/api/src/modules/cart/pricing.ts
 * SHIPPING_COUNTRIES); the api decides the shipping price of each.
 */
export const SHIPPING_COUNTRIES: readonly { code: string; name: string }[] = [
  { code: 'US', name: 'United States' },
  { code: 'CA', name: 'Canada' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
  { code: 'NL', name: 'Netherlands' },
  { code: 'SE', name: 'Sweden' },
  { code: 'JP', name: 'Japan' },
  { code: 'AU', name: 'Australia' },
];

export function countryName(code: string): string {
  return SHIPPING_COUNTRIES.find((country) => country.code === code)?.name ?? code;
}
