import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomIdPattern } from '@showroom/contracts/random-id';
import type { SessionRepository, ShopSession } from './repository.js';

/** The session cookie: a signed random id, HttpOnly, SameSite=Lax, Secure over https. */
export const SESSION_COOKIE = 'showroom_session';
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
    const cookie = request.cookies[SESSION_COOKIE];
    if (cookie) {
      const unsigned = request.unsignCookie(cookie);
      if (unsigned.valid && unsigned.value !== null && SESSION_ID.test(unsigned.value)) {
        const existing = await sessions.find(unsigned.value);
        if (existing) {
          // Signed with an older secret: re-sign with the current one.
          if (unsigned.renew) setSessionCookie(reply, existing.id);
          return existing;
        }
      }
    }
    const created = await sessions.create(clock());
    setSessionCookie(reply, created.id);
    return created;
  }

  return (request, reply) => {
    let session = resolved.get(request);
    if (!session) {
      session = resolve(request, reply);
      resolved.set(request, session);
    }
    return session;
  };
}

function setSessionCookie(reply: FastifyReply, sessionId: string): void {
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
