import { randomBytes } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { ErrorResponse } from '@showroom/contracts/errors';
import {
  COMMON_SECURITY_HEADERS,
  OPERATOR_TOKEN_ENV,
  operatorHeadersOf,
  OPERATOR_COOKIE,
  OPERATOR_COOKIE_MAX_AGE_SECONDS,
  OPERATOR_QUERY_PARAM,
  crossSiteReason,
  firstHeaderValue,
  writeRequestOf,
  operatorTokenMatches,
  operatorTokenOfCookies,
} from '@showroom/contracts/security';
import type { RuntimeProfiles } from './profiles.js';

/**
 * The web server's part of the shop's security guarantees (docs/reliability.md "Security"):
 * a per-response CSP nonce and the security headers on every page, the cross-site check for
 * page writes (React Router actions; the api checks its own behind /api), and the operator
 * token's cookie for the presenter's pages.
 */

/**
 * The web server's own calls to operator routes (the fault watch's flag list, the build marker)
 * carry OPERATOR_TOKEN when it is set.
 */
export function operatorHeaders(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return operatorHeadersOf(env[OPERATOR_TOKEN_ENV]);
}

/** Where the per-response nonce lives for the page renderer (the load context reads it). */
export function cspNonceOf(response: Response): string | undefined {
  const nonce: unknown = response.locals.cspNonce;
  return typeof nonce === 'string' ? nonce : undefined;
}

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The profile fields that name places a page may talk to (app/startup/deployment-profiles.ts). */
interface ProfileAddresses {
  site?: unknown;
  backendUrl?: unknown;
  flagsUrl?: unknown;
  intakeUrl?: unknown;
  allowedTracingUrls?: unknown;
}

function originOf(address: unknown): string | undefined {
  if (typeof address !== 'string' || !/^https?:\/\//.test(address)) return undefined;
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
}

/**
 * The monitoring SDK's own intake host for a site when a profile sets no intake proxy:
 * `browser-intake-<site with dots as dashes, but the last>.<tld>` (datadoghq.com →
 * browser-intake-datadoghq.com, ap1.datadoghq.com → browser-intake-ap1-datadoghq.com).
 */
export function monitoringIntakeOrigin(site: string): string {
  const parts = site.split('.');
  const tld = parts.pop();
  return `https://browser-intake-${parts.join('-')}.${tld}`;
}

/**
 * Everywhere a page's scripts may connect, besides its own origin: each profile's absolute
 * backend, flag, intake and traced addresses; the monitoring site's intake for a profile without
 * an intake proxy, and its flag CDN (`*.<site>`) for one without a flag address.
 */
export function connectSources(profiles: RuntimeProfiles): string[] {
  const sources = new Set<string>();
  for (const value of Object.values(profiles)) {
    if (typeof value !== 'object' || value === null) continue;
    const profile = value as ProfileAddresses;
    for (const address of [profile.backendUrl, profile.flagsUrl, profile.intakeUrl]) {
      const origin = originOf(address);
      if (origin) sources.add(origin);
    }
    if (Array.isArray(profile.allowedTracingUrls)) {
      for (const address of profile.allowedTracingUrls) {
        const origin = originOf(address);
        if (origin) sources.add(origin);
      }
    }
    const site = typeof profile.site === 'string' ? profile.site : undefined;
    if (site && /^[a-z0-9.-]+$/i.test(site)) {
      if (profile.intakeUrl === null || profile.intakeUrl === undefined) {
        sources.add(monitoringIntakeOrigin(site));
      }
      if (profile.flagsUrl === null || profile.flagsUrl === undefined)
        sources.add(`https://*.${site}`);
    }
  }
  return [...sources].sort();
}

/**
 * The pages' Content-Security-Policy. Scripts: this origin's bundles and inline scripts carrying
 * the response's nonce (React Router's hydration and streamed-data scripts, ScrollRestoration).
 * Styles: 'unsafe-inline', because the stylesheet is inlined in the document and components set
 * style attributes (which no nonce can cover); styles cannot run script. Images: data: for the
 * inlined AVIF previews. Media and workers: blob:, for the video demo's MediaSource
 * (shaka-player) and the monitoring SDK's compression worker (session replay). Connections: this
 * origin (the /api proxy: api, intake, flags), the profiles' addresses, and http://localhost:* /
 * http://127.0.0.1:* for a stored backend override to a local api.
 */
export function pageContentSecurityPolicy(nonce: string, connect: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    `connect-src 'self' ${[...connect, 'http://localhost:*', 'http://127.0.0.1:*'].join(' ')}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Security headers on every answer of the web server (pages, assets, profiles, errors) and a
 * fresh nonce per response. `policy` answers undefined under the dev server, whose Vite client
 * injects scripts no nonce covers: there only the other headers apply.
 */
export function securityHeaders(policy: (nonce: string) => string | undefined): RequestHandler {
  return (_request, response, next) => {
    for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) {
      response.setHeader(name, value);
    }
    const nonce = newNonce();
    const header = policy(nonce);
    if (header !== undefined) {
      response.locals.cspNonce = nonce;
      response.setHeader('Content-Security-Policy', header);
    }
    next();
  };
}

function sendError(response: Response, status: number, body: ErrorResponse): void {
  response.status(status).setHeader('Cache-Control', 'no-store').json(body);
}

/** Page writes (React Router actions) from another site are refused, as the api refuses its own. */
export function crossSiteWrites(allowed: readonly string[]): RequestHandler {
  return (request, response, next) => {
    const reason = crossSiteReason(writeRequestOf(request.method, request.headers), allowed);
    if (reason === null) {
      next();
      return;
    }
    sendError(response, 403, {
      error: { code: 'CROSS_SITE_REQUEST', message: `Cross-site request refused: ${reason}` },
    });
  };
}

function isHttps(request: Request): boolean {
  return (
    (request.socket as TLSSocket).encrypted === true ||
    firstHeaderValue(request.headers['x-forwarded-proto'])?.split(',')[0]?.trim() === 'https'
  );
}

/** Sets (or, for an empty token, clears) the operator cookie: HttpOnly, SameSite=Strict. */
function setOperatorCookie(request: Request, response: Response, token: string): void {
  response.cookie(OPERATOR_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(request),
    path: '/',
    maxAge: token ? OPERATOR_COOKIE_MAX_AGE_SECONDS * 1000 : 0,
  });
}

/** The operator's pages: flag changes, the inspector, the outbox and the demo's switches. */
export const OPERATOR_PAGES = ['/flags', '/inspector', '/outbox', '/demo'];

function isOperatorPage(path: string): boolean {
  return OPERATOR_PAGES.some((page) => path === page || path.startsWith(`${page}/`));
}

/** Where the sign-in form posts. */
export const OPERATOR_SIGN_IN_PATH = '/operator/sign-in';

/**
 * The presenter enters the operator token once: `?operator=<token>` on any page, or the
 * sign-in form an operator page shows without it. Either way the token goes into an HttpOnly
 * cookie (SameSite=Strict) and the address is reloaded without it; the /api proxy and the
 * loaders forward the cookie's token to the api as `Authorization: Bearer <token>`. With
 * OPERATOR_TOKEN set on this server, an operator page without the right token answers the
 * sign-in form (401) instead of the page.
 */
export function operatorSignIn(expected: string | undefined): RequestHandler {
  return (request, response, next) => {
    if (request.method === 'POST' && request.path === OPERATOR_SIGN_IN_PATH) {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        raw += chunk;
        if (raw.length > 4096) request.destroy();
      });
      request.on('end', () => {
        const form = new URLSearchParams(raw);
        const token = form.get(OPERATOR_QUERY_PARAM) ?? '';
        const back = form.get('returnTo') ?? '/';
        setOperatorCookie(request, response, token);
        // Only a path of this origin: not `//host` nor `/\\host`, which browsers read as another host.
        response.redirect(303, /^\/(?![/\\])/.test(back) ? back : '/');
      });
      return;
    }
    if (request.method === 'GET' && typeof request.query[OPERATOR_QUERY_PARAM] === 'string') {
      const url = new URL(request.originalUrl, 'http://placeholder');
      const token = url.searchParams.get(OPERATOR_QUERY_PARAM) ?? '';
      url.searchParams.delete(OPERATOR_QUERY_PARAM);
      setOperatorCookie(request, response, token);
      response.redirect(303, `${url.pathname}${url.search}`);
      return;
    }
    if (expected && request.method === 'GET' && isOperatorPage(request.path)) {
      const presented = operatorTokenOfCookies(request.headers.cookie);
      if (presented === undefined || !operatorTokenMatches(presented, expected)) {
        response
          .status(401)
          .setHeader('Cache-Control', 'no-store')
          .type('html')
          .send(signInPage(request.originalUrl, presented !== undefined));
        return;
      }
    }
    next();
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function signInPage(returnTo: string, wrong: boolean): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Operator sign-in — Showroom</title><link rel="icon" href="/favicon.png" type="image/png" sizes="48x48"></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem">
<main id="main">
<h1>Operator sign-in</h1>
<p>This page is for the shop's operators. Enter the operator token (OPERATOR_TOKEN) to continue.</p>
${wrong ? '<p role="alert">The operator token you entered is not valid.</p>' : ''}
<form method="post" action="${OPERATOR_SIGN_IN_PATH}">
<input type="hidden" name="returnTo" value="${escapeHtml(returnTo)}">
<label for="operator-token">Operator token</label>
<input id="operator-token" name="${OPERATOR_QUERY_PARAM}" type="password" autocomplete="current-password" required>
<button type="submit">Continue</button>
</form>
</main></body></html>`;
}

/**
 * The last error handler: a generic page, never the error's message or stack (Express's own
 * handler shows the stack unless NODE_ENV is production). The error goes to the log.
 */
export function genericErrors(): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    const status =
      typeof (error as { status?: unknown }).status === 'number' &&
      (error as { status: number }).status >= 400 &&
      (error as { status: number }).status < 500
        ? (error as { status: number }).status
        : 500;
    if (status >= 500)
      console.error(`Showroom web: ${request.method} ${request.path} failed:`, error);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response
      .status(status)
      .setHeader('Cache-Control', 'no-store')
      .type('text/plain')
      .send(status >= 500 ? 'Internal Server Error' : 'Bad Request');
  };
}
