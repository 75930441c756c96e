// Browser family for the flag evaluation context.

export type BrowserFamily = 'Chrome' | 'Firefox' | 'Safari' | 'Edge' | 'Opera' | 'Other';

/**
 * Checks in exactly the spec's order: Chrome, Firefox, Safari-not-Chrome, Edge, Opera, Other.
 * Chromium-based Edge and Opera user agents contain "Chrome", so they report Chrome; Edge and
 * Opera are only reached by user agents without the Chrome, Firefox and Safari tokens (e.g.
 * Presto-era Opera). That is the spec's rule, kept literally so flag targeting on
 * `browser` matches the original product.
 */
export function detectBrowserFamily(userAgent: string): BrowserFamily {
  if (userAgent.includes('Chrome')) return 'Chrome';
  if (userAgent.includes('Firefox')) return 'Firefox';
  if (userAgent.includes('Safari') && !userAgent.includes('Chrome')) return 'Safari';
  if (userAgent.includes('Edg')) return 'Edge';
  if (userAgent.includes('OPR') || userAgent.includes('Opera')) return 'Opera';
  return 'Other';
}
