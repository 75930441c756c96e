import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomIdPattern } from '@showroom/contracts/random-id';
import { SESSION_COOKIE } from '@showroom/contracts/security';
import type { SessionRepository, ShopSession } from './repository.js';

/** How long a browser keeps its session cookie (and so its cart): 30 days. */
export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

const SESSION_ID = new RegExp(randomIdPattern('ses'));

/** Answers the caller's session, creating one (and setting its cookie) on first use. */
export type RequireSession = (request: FastifyRequest, reply: FastifyReply) => Promise<ShopSession>;

/**
 * The only way a route learns whose data it may touch: the session id comes from the signed
 * cookie, never from a body, query or path. An unknown, tampered or expired cookie gets a
 * fresh session with a new id. Works the same for a browser (`credentials: 'include'`) and
 * for the web server forwarding the browser's Cookie header (it forwards Set-Cookie back).
 */
export function createRequireSession(
  sessions: SessionRepository,
  clock: () => Date = () => new Date(),
): RequireSession {
  // One session per request even when several handlers ask.
  const resolved = new WeakMap<FastifyRequest, Promise<ShopSession>>();

  async function resolve(request: FastifyRequest, reply: FastifyReply): Promise<ShopSession> {
    const found = await sessionOfCookie(sessions, request);
    if (found) {
      // Signed with an older secret: re-sign with the current one.
      if (found.renew) setSessionCookie(reply, found.session.id);
      return found.session;
    }
    const created = await sessions.create(clock());
    setSessionCookie(reply, created.id);
    return created;
  }

  return (request, reply) => {
    let session = resolved.get(request);
    if (!session) {
      session = resolve(request, reply).then((found) => {
        tagSpan(request, found);
        return found;
      });
      resolved.set(request, session);
    }
    return session;
  };
}

/** The session the request's cookie names, or null; never creates one, never sets a cookie. */
export type FindSession = (request: FastifyRequest) => Promise<ShopSession | null>;

/**
 * For routes that serve anyone but may answer a session's shopper differently (the catalog,
 * with fault flags aimed at a shopper: decision 010): reads the cookie's session, once per
 * request, without creating one, so catalog answers set no cookie.
 */
export function createFindSession(sessions: SessionRepository): FindSession {
  const found = new WeakMap<FastifyRequest, Promise<ShopSession | null>>();
  return (request) => {
    let session = found.get(request);
    if (!session) {
      session = sessionOfCookie(sessions, request).then((result) => {
        if (result) tagSpan(request, result.session);
        return result?.session ?? null;
      });
      found.set(request, session);
    }
    return session;
  };
}

/** The stored session a valid signed cookie names; `renew` when signed with an older secret. */
async function sessionOfCookie(
  sessions: SessionRepository,
  request: FastifyRequest,
): Promise<{ session: ShopSession; renew: boolean } | null> {
  const cookie = request.cookies[SESSION_COOKIE];
  if (!cookie) return null;
  const unsigned = request.unsignCookie(cookie);
  if (!unsigned.valid || unsigned.value === null || !SESSION_ID.test(unsigned.value)) return null;
  const session = await sessions.find(unsigned.value);
  return session ? { session, renew: unsigned.renew } : null;
}

/**
 * The persona on the request's server span (decision 008): `usr.id` and `usr.tier`, the same
 * person the browser's monitoring user and flag subject name.
 */
export function tagSpan(request: FastifyRequest, session: ShopSession): void {
  const shopper = session.shopper;
  if (!shopper) return;
  request.trace?.span.setAttributes({
    'usr.id': shopper.id,
    'usr.tier': shopper.tier,
    'usr.loyalty_member': shopper.loyaltyMember,
    ...(session.account ? { 'usr.account': true } : {}),
  });
}

/** Sign-in, sign-up and sign-out hand the browser a new session: its cookie. */
export function setSessionCookie(reply: FastifyReply, sessionId: string): void {
  reply.setCookie(SESSION_COOKIE, sessionId, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    // https requests get Secure; plain http on localhost (the embedded default) cannot.
    secure: 'auto',
    path: '/',
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}
