/**
 * Where sign-in sends the shopper back to: the `?next=` of the sign-in link, when it is a path
 * of this site. Anything else — another origin, a protocol-relative `//host`, a backslash that
 * browsers read as a slash, control characters — goes to the profile instead, so a crafted
 * link cannot use the shop's sign-in to send someone elsewhere.
 */

export const AFTER_SIGN_IN = '/profile';

/** The pages that lead back to sign-in or sign-up: not a place to go after it. */
const NOT_AFTER = new Set(['/signin', '/signup', '/signup-verify']);

const BASE = 'https://showroom.invalid';

export function safeNextPath(next: string | null | undefined, fallback = AFTER_SIGN_IN): string {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return fallback;
  // Backslashes and control characters (tab, newline) are dropped or rewritten by URL parsers.
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c === '\u007f')) {
    return fallback;
  }
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || NOT_AFTER.has(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page that comes back to `path` afterwards. */
export function signInPath(path?: string): string {
  const next = path === undefined ? null : safeNextPath(path, '');
  return next ? `/signin?next=${encodeURIComponent(next)}` : '/signin';
}
