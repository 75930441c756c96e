/**
 * The shape of route rules as the build manifest carries them (docs/requirements.md,
 * ), without any Node.js module: the browser's build watch (app/builds/build-watch.ts)
 * reads the same types and tells external targets apart by the same rule as the server.
 */

/** Status codes a redirect rule may answer; 302 when the rule names none. */
export const REDIRECT_STATUS_CODES = [301, 302, 303, 307, 308] as const;
export type RedirectStatusCode = (typeof REDIRECT_STATUS_CODES)[number];
export const DEFAULT_REDIRECT_STATUS: RedirectStatusCode = 302;

export interface RedirectRule {
  /** A path of this shop (`/department/sofas`) or an absolute http(s) address. */
  to: string;
  statusCode: RedirectStatusCode;
}

export interface RouteRule {
  redirect: RedirectRule;
}

/** Rules by exact path (`/sale`). */
export type RouteRules = Record<string, RouteRule>;

/** Whether a rule's target is another site: a full page load in the browser. */
export function isExternalTarget(to: string): boolean {
  return /^https?:\/\//i.test(to);
}
