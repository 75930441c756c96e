/**
 * What the api and the web server agree on for the shop's security guarantees
 * (docs/reliability.md "Security"): the operator token's header, cookie and query parameter,
 * the cross-site write check, the allowed-origins list and the headers every answer carries.
 */

// The WHATWG URL parser, global in Node and browsers; the contracts compile without either's types.
interface ParsedUrl {
  origin: string;
  host: string;
  protocol: string;
}
declare const URL: new (input: string) => ParsedUrl;

/** The environment variable holding the operator token; unset keeps operator routes open. */
export const OPERATOR_TOKEN_ENV = 'OPERATOR_TOKEN';
/** Operator routes read the token from `Authorization: Bearer <token>`. */
export const OPERATOR_AUTHORIZATION_SCHEME = 'Bearer';
/**
 * A presenter enters the token once as `?operator=<token>` on any page: the web server keeps it
 * in this HttpOnly cookie and forwards it to the api as `Authorization: Bearer <token>`.
 */
export const OPERATOR_QUERY_PARAM = 'operator';
export const OPERATOR_COOKIE = 'showroom_operator';
/**
 * The shop session's cookie, set by the api: a signed random id, HttpOnly, SameSite=Lax, Secure
 * over https. A browser without it has no session yet, so no cart.
 */
export const SESSION_COOKIE = 'showroom_session';
/** How long the operator cookie lasts: a working day of presenting. */
export const OPERATOR_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 12;

/** ALLOWED_ORIGINS: browser origins besides the shop's own that may send writes. */
export const ALLOWED_ORIGINS_ENV = 'ALLOWED_ORIGINS';

/** Headers on every answer of the web server and the api. */
export const COMMON_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

/** The api answers JSON only: nothing in it may load, run or be framed. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** `ALLOWED_ORIGINS=https://a.example,https://b.example` as normalised origins (bad entries throw). */
export function parseAllowedOrigins(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: ParsedUrl;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`${ALLOWED_ORIGINS_ENV}: "${entry}" is not an origin (https://host:port)`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Error(`${ALLOWED_ORIGINS_ENV}: "${entry}" must be an http(s) origin`);
      }
      return url.origin;
    });
}

/** What the cross-site check reads of a request. Header values as received, or undefined. */
export interface WriteRequest {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The host the browser addressed: X-Forwarded-Host (first value) when a proxy set it, else Host. */
  host: string | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Request headers as Node gives them: lower-case names, a repeated header as an array. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A header's value, the first one when it came more than once. */
export function firstHeaderValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * What the cross-site check reads of a request with these headers: the host the browser
 * addressed is X-Forwarded-Host when a proxy (the web's /api proxy) set it, else Host.
 */
export function writeRequestOf(method: string, headers: RequestHeaders): WriteRequest {
  return {
    method,
    origin: firstHeaderValue(headers.origin),
    secFetchSite: firstHeaderValue(headers['sec-fetch-site']),
    host: firstHeaderValue(headers['x-forwarded-host']) ?? firstHeaderValue(headers.host),
  };
}

/**
 * Why a request must be refused as a cross-site write, or null when it may go on.
 * Reads (GET, HEAD, OPTIONS) always go on. A browser saying `Sec-Fetch-Site: same-origin` or
 * `none` (typed in, a bookmark) vouches for itself. A request without Origin is not a browser's
 * cross-site write (curl, the web server's loaders, the traffic generator, tests) unless
 * Sec-Fetch-Site says cross-site. An Origin is accepted when its host (with port) is the host
 * the request addressed, whatever the host name and port (the shop runs under any), or when it
 * is in `allowed` (ALLOWED_ORIGINS). A browser cannot forge Origin, Host or X-Forwarded-Host on
 * a cross-site request (setting X-Forwarded-Host would need a CORS preflight).
 */
export function crossSiteReason(request: WriteRequest, allowed: readonly string[]): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const site = request.secFetchSite?.toLowerCase();
  if (site === 'same-origin' || site === 'none') return null;
  const origin = request.origin;
  if (origin === undefined || origin === '') {
    return site === 'cross-site' ? 'Sec-Fetch-Site says the request came from another site' : null;
  }
  if (origin === 'null') return 'the request came from an opaque origin (Origin: null)';
  let parsed: ParsedUrl;
  try {
    parsed = new URL(origin);
  } catch {
    return `Origin "${origin}" is not an origin`;
  }
  if (allowed.includes(parsed.origin)) return null;
  const host = normalisedHost(request.host, parsed.protocol);
  if (host !== undefined && host === parsed.host) return null;
  return `Origin ${parsed.origin} is not this shop's origin (${host ?? 'no Host'}) nor in ${ALLOWED_ORIGINS_ENV}`;
}

/** `shop.test:80` under http is `shop.test`, as an Origin writes it. */
function normalisedHost(host: string | undefined, protocol: string): string | undefined {
  const first = host?.split(',')[0]?.trim();
  if (!first) return undefined;
  try {
    return new URL(`${protocol}//${first}`).host;
  } catch {
    return undefined;
  }
}

/** The operator token a Cookie header carries, or undefined. */
export function operatorTokenOfCookies(
  cookieHeader: string | undefined | null,
): string | undefined {
  return cookieValue(cookieHeader, OPERATOR_COOKIE);
}

/** The (URL-decoded) value of the cookie `name` in a Cookie header; undefined when absent or empty. */
export function cookieValue(
  cookieHeader: string | undefined | null,
  name: string,
): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(value) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** `Authorization: Bearer <token>` for a token. */
export function operatorAuthorization(token: string): string {
  return `${OPERATOR_AUTHORIZATION_SCHEME} ${token}`;
}

/** Headers for a server-side caller of operator routes: the token's Authorization, if set. */
export function operatorHeadersOf(token: string | undefined): Record<string, string> {
  return token ? { authorization: operatorAuthorization(token) } : {};
}

/** Whether a listening host is loopback-only (no warning without OPERATOR_TOKEN there). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * The start-up warning of a server that listens beyond this machine with open operator
 * routes, or null.
 */
export function openOperatorRoutesWarning(
  server: string,
  host: string,
  token: string | undefined,
): string | null {
  if (token || isLoopbackHost(host)) return null;
  return `${server}: listening on ${host} without ${OPERATOR_TOKEN_ENV}: operator routes (flag changes, the inspector, the outbox, scenario switches) are open to anyone who reaches this address; set ${OPERATOR_TOKEN_ENV} to require a token`;
}

/**
 * Whether a presented operator token is the configured one, in time that depends only on the
 * configured token's length (never on where the two differ, nor on the presented length).
 */
export function operatorTokenMatches(presented: string, expected: string): boolean {
  let difference = presented.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    // Past the presented token's end, compare with a value no character has.
    const left = i < presented.length ? presented.charCodeAt(i) : 0x10000;
    difference |= left ^ expected.charCodeAt(i);
  }
  return difference === 0;
}
