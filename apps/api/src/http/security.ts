import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_CONTENT_SECURITY_POLICY,
  COMMON_SECURITY_HEADERS,
  OPERATOR_AUTHORIZATION_SCHEME,
  OPERATOR_TOKEN_ENV,
  crossSiteReason,
  writeRequestOf,
  operatorTokenMatches,
} from '@showroom/contracts/security';
import { ApiError } from './errors.js';

/**
 * Operator routes (docs/reliability.md "Security"): flag administration, the session
 * inspector's data, change markers, the mail outbox, scenario switches and the autopilot. Each is
 * `METHOD route-url` as registered; a test checks every one is a route of the app.
 */
export const OPERATOR_ROUTES: readonly string[] = [
  'GET /flags',
  'GET /flags/audit',
  'GET /flags/:key',
  'PATCH /flags/:key',
  'PUT /flags/:key/rollout',
  'PUT /flags/:key/rules',
  // Guarded rollouts (docs/decisions/019-guarded-rollouts.md).
  'GET /guards',
  'GET /guards/:flag',
  'PUT /flags/:key/guard',
  'DELETE /flags/:key/guard',
  'GET /monitoring/sessions',
  'GET /monitoring/sessions/:sessionId',
  'GET /monitoring/stats',
  // Experiment results read the inspector's data (docs/decisions/017-experiment-statistics.md).
  'GET /experiments',
  'GET /experiments/:flagKey',
  'GET /markers',
  'POST /markers/builds',
  'GET /outbox',
  'GET /outbox/:id',
  'POST /scenarios/:id/start',
  'POST /scenarios/:id/stop',
  // The traffic generators' control: generators read it with the token too.
  'GET /traffic/control',
  'PUT /traffic/control',
  'DELETE /traffic/control',
  // The autopilot (docs/decisions/018-autopilot.md): it turns scenarios on and off.
  'GET /autopilot',
  'POST /autopilot/start',
  'POST /autopilot/pause',
  'POST /autopilot/resume',
  'POST /autopilot/stop',
];
const OPERATOR_ROUTE_SET = new Set(OPERATOR_ROUTES);

/** The api's own documentation pages (Swagger UI) run scripts and styles of their own. */
const DOCS_PREFIX = '/docs';
const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";

export interface SecurityOptions {
  /** OPERATOR_TOKEN: operator routes need `Authorization: Bearer <token>`; unset = open. */
  operatorToken?: string;
  /** Browser origins besides the request's own that may send writes (CORS_ORIGINS, ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
}

/** Whether `request` is an operator route (see OPERATOR_ROUTES). */
export function isOperatorRoute(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  return url !== undefined && OPERATOR_ROUTE_SET.has(`${request.method} ${url}`);
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== OPERATOR_AUTHORIZATION_SCHEME.toLowerCase() || !token) {
    return undefined;
  }
  return token;
}

/**
 * The api's security guarantees as hooks (docs/reliability.md "Security"): cross-site writes are
 * refused (403 CROSS_SITE_REQUEST), operator routes need the operator token when one is set
 * (401 OPERATOR_TOKEN_MISSING / OPERATOR_TOKEN_INVALID), and every answer carries a strict CSP
 * and the common security headers.
 */
export function registerSecurity(app: FastifyInstance, options: SecurityOptions): void {
  const allowed = options.allowedOrigins ?? [];
  const token = options.operatorToken || undefined;

  // Callback hooks, as every request runs them: an async hook would cost a promise each.
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      refuseForbidden(request, allowed, token);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });

  const apiHeaders = {
    ...COMMON_SECURITY_HEADERS,
    'content-security-policy': API_CONTENT_SECURITY_POLICY,
  };
  const docsHeaders = {
    ...COMMON_SECURITY_HEADERS,
    'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    const docs = request.url === DOCS_PREFIX || request.url.startsWith(`${DOCS_PREFIX}/`);
    reply.headers(docs ? docsHeaders : apiHeaders);
    done(null, payload);
  });
}

/** Throws the 403 of a cross-site write, or the 401 of an operator route without its token. */
function refuseForbidden(
  request: FastifyRequest,
  allowed: readonly string[],
  token: string | undefined,
): void {
  const reason = crossSiteReason(writeRequestOf(request.method, request.headers), allowed);
  if (reason !== null) {
    throw new ApiError(403, 'CROSS_SITE_REQUEST', `Cross-site request refused: ${reason}`);
  }
  if (token === undefined || !isOperatorRoute(request)) return;
  const presented = bearerToken(request);
  if (presented === undefined) {
    throw new ApiError(
      401,
      'OPERATOR_TOKEN_MISSING',
      `This operator route needs the operator token (${OPERATOR_TOKEN_ENV}) as Authorization: ${OPERATOR_AUTHORIZATION_SCHEME} <token>`,
    );
  }
  if (!operatorTokenMatches(presented, token)) {
    throw new ApiError(401, 'OPERATOR_TOKEN_INVALID', 'The operator token is not valid');
  }
}
