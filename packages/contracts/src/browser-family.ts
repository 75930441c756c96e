// Browser family for the flag evaluation subject (docs/requirements.md ).

export type BrowserFamily = 'Chrome' | 'Firefox' | 'Safari' | 'Edge' | 'Opera' | 'Other';

/**
 * Checks in exactly the product's order: Chrome, Firefox, Safari-not-Chrome, Edge, Opera, Other.
 * Chromium-based Edge and Opera user agents contain "Chrome", so they report Chrome; Edge and
 * Opera are only reached by user agents without the Chrome, Firefox and Safari tokens (e.g.
 * Presto-era Opera). The rule is kept literally so flag targeting on `browser` matches the
 * original product, in the browser and in the api alike.
 */
export function detectBrowserFamily(userAgent: string): BrowserFamily {
  if (userAgent.includes('Chrome')) return 'Chrome';
  if (userAgent.includes('Firefox')) return 'Firefox';
  if (userAgent.includes('Safari') && !userAgent.includes('Chrome')) return 'Safari';
  if (userAgent.includes('Edg')) return 'Edge';
  if (userAgent.includes('OPR') || userAgent.includes('Opera')) return 'Opera';
  return 'Other';
}
