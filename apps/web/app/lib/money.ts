const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Formats integer cents for display; the api computes every amount. */
export function formatPrice(cents: number): string {
  return usd.format(cents / 100);
}
