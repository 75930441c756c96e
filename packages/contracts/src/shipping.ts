/** Countries the shop ships to (ISO 3166-1 alpha-2) with the names shoppers see. */
export const SHIPPING_COUNTRY_NAMES = {
  US: 'United States',
  CA: 'Canada',
  GB: 'United Kingdom',
  DE: 'Germany',
  FR: 'France',
  NL: 'Netherlands',
  SE: 'Sweden',
  JP: 'Japan',
  AU: 'Australia',
} as const;

export type ShippingCountry = keyof typeof SHIPPING_COUNTRY_NAMES;

export const SHIPPING_COUNTRIES = Object.keys(SHIPPING_COUNTRY_NAMES) as readonly ShippingCountry[];

export const DEFAULT_SHIPPING_COUNTRY: ShippingCountry = 'US';

export function isShippingCountry(code: string): code is ShippingCountry {
  return Object.hasOwn(SHIPPING_COUNTRY_NAMES, code);
}

export function countryName(code: string): string {
  return isShippingCountry(code) ? SHIPPING_COUNTRY_NAMES[code] : code;
}
