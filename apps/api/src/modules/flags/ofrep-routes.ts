import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { firstHeaderValue } from '@showroom/contracts/security';
import {
  OFREP_API_KEYS_ENV,
  OFREP_EVALUATE_PATH,
  OfrepBulkEvaluationSuccessSchema,
  OfrepErrorSchema,
  OfrepEvaluationFailureSchema,
  OfrepEvaluationRequestSchema,
  OfrepEvaluationSuccessSchema,
  OfrepFlagNotFoundSchema,
  type OfrepContext,
  type OfrepError,
} from '@showroom/contracts/ofrep';
import { isDatabaseUnavailable } from '../../db/database.js';
import { DATABASE_RETRY_AFTER_SECONDS, fieldOfValidationIssue } from '../../http/error-handler.js';
import { ApiError } from '../../http/errors.js';
import { ofrepEvaluation, ofrepSubject, type OfrepOutcome } from './ofrep.js';
import { evaluationLogger } from './precompute-routes.js';
import type { FlagsRepository } from './repository.js';
import type { UfcFlag } from './ufc.js';

export interface OfrepRoutesOptions {
  flags: FlagsRepository;
  now: () => number;
  /** OFREP_API_KEYS: when any, a request must present one of them; none leaves the routes open. */
  apiKeys: readonly string[];
  /** OFREP_RATE_LIMIT_PER_MINUTE: requests a minute per route and client address. */
  rateLimitPerMinute: number;
}

/** A failure answered in OFREP's error shape; `errorCode` is an OpenFeature error code. */
class OfrepHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

const FlagKeyParamsSchema = Type.Object({ key: Type.String({ minLength: 1, maxLength: 256 }) });

const IfNoneMatchHeadersSchema = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ description: 'The ETag of the last answer: 304 while it is still current' }),
  ),
});

const AUTH_DESCRIPTION =
  'When OFREP_API_KEYS is set: `X-API-Key: <key>` or `Authorization: Bearer <key>` (401 without one, 403 with a wrong one). Limited per client address (OFREP_RATE_LIMIT_PER_MINUTE): 429 with Retry-After (seconds).';

/**
 * The OpenFeature Remote Evaluation Protocol (open-feature/protocol, service/openapi.yaml) over
 * the flag service's one evaluator (docs/decisions/016-ofrep.md): `POST /ofrep/v1/evaluate/flags/{key}`
 * and the bulk `POST /ofrep/v1/evaluate/flags`. Its own plugin scope, so every failure (a body
 * that is not JSON, a bad context, a refused key, a rate limit) answers in OFREP's error shape.
 */
export const ofrepRoutes: FastifyPluginAsyncTypebox<OfrepRoutesOptions> = async (
  app,
  { flags, now, apiKeys, rateLimitPerMinute },
) => {
  app.setErrorHandler(sendOfrepError);

  // After the rate limit (a route `onRequest` hook), before the body is read: a refused caller
  // costs no parsing, and guessing keys counts against the limit.
  const keyDigests = apiKeys.map(digest);
  app.addHook('preParsing', async (request) => {
    if (keyDigests.length > 0) checkApiKey(request, keyDigests);
  });
  // OFREP's request body is optional (service/openapi.yaml): none reads as an empty context.
  // A JSON null is a body, and not an object: refused as PARSE_ERROR.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined) request.body = {};
  });

  const config = { rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } };

  app.post(
    `${OFREP_EVALUATE_PATH}/:key`,
    {
      config,
      schema: {
        tags: ['flags'],
        summary: 'One flag for one context (OpenFeature Remote Evaluation Protocol)',
        description: `The same evaluation as precompute-assignments. No assignment (flag disabled, no allocation matched) answers 200 without \`value\`: the caller's default applies. ${AUTH_DESCRIPTION}`,
        params: FlagKeyParamsSchema,
        body: OfrepEvaluationRequestSchema,
        response: {
          200: OfrepEvaluationSuccessSchema,
          400: OfrepEvaluationFailureSchema,
          404: OfrepFlagNotFoundSchema,
          '4xx': OfrepErrorSchema,
          '5xx': OfrepErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      const stored = await flags.findServedFlag(key);
      if (!stored) {
        return reply
          .status(404)
          .send({ key, errorCode: 'FLAG_NOT_FOUND', errorDetails: `No flag "${key}"` });
      }
      const outcome = evaluate(request.log, request.body.context, stored.flag);
      return reply.status(outcome.status).send(outcome.body);
    },
  );

  app.post(
    OFREP_EVALUATE_PATH,
    {
      config,
      schema: {
        tags: ['flags'],
        summary: 'Every flag for one context (OpenFeature Remote Evaluation Protocol, bulk)',
        description: `One entry a flag: a success (without \`value\` when there is no assignment) or an error entry. The answer's ETag changes with the flag configuration and with the answer; If-None-Match with the current one answers 304. ${AUTH_DESCRIPTION}`,
        headers: IfNoneMatchHeadersSchema,
        body: OfrepEvaluationRequestSchema,
        response: {
          200: OfrepBulkEvaluationSuccessSchema,
          304: Type.Null({ description: 'Not modified: the ETag is still current' }),
          '4xx': OfrepErrorSchema,
          '5xx': OfrepErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { configuration, flags: served } = await flags.getServingSnapshot();
      const { context } = request.body;
      const body = { flags: served.map((flag) => evaluate(request.log, context, flag).body) };
      const etag = bulkEtag(configuration?.createdAt ?? 0, body);
      reply.header('etag', etag);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
      return body;
    },
  );

  function evaluate(
    log: FastifyBaseLogger,
    context: OfrepContext | undefined,
    flag: UfcFlag,
  ): OfrepOutcome {
    const outcome = ofrepEvaluation(flag, ofrepSubject(context), evaluationLogger(log), now());
    if (outcome.status !== 200 && outcome.dropped) {
      log.warn(outcome.dropped, 'flag answered as an OFREP error');
    }
    return outcome;
  }
};

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The presented key against every configured one, in constant time: digests have one length,
 * and every key is compared (no early exit). X-API-Key or Authorization: Bearer; either may
 * carry the key (the web's /api proxy may add the operator's bearer token, api-proxy.ts).
 */
function checkApiKey(request: FastifyRequest, keyDigests: readonly Buffer[]): void {
  const presented = [firstHeaderValue(request.headers['x-api-key']), bearerToken(request)].filter(
    (value): value is string => value !== undefined && value !== '',
  );
  if (presented.length === 0) {
    throw new OfrepHttpError(
      401,
      'GENERAL',
      `This flag service needs an API key (${OFREP_API_KEYS_ENV}): X-API-Key: <key> or Authorization: Bearer <key>`,
    );
  }
  let matched = false;
  for (const candidate of presented.map(digest)) {
    for (const key of keyDigests) matched = timingSafeEqual(candidate, key) || matched;
  }
  if (!matched) throw new OfrepHttpError(403, 'GENERAL', 'The API key is not valid');
}

function bearerToken(request: FastifyRequest): string | undefined {
  const [scheme, token] = (request.headers.authorization ?? '').trim().split(/\s+/, 2);
  return scheme?.toLowerCase() === 'bearer' ? token : undefined;
}

/**
 * A strong ETag over the configuration version and the answer itself: any operator change
 * (createdAt moves on every change, on every replica alike) or any change in what this context
 * gets makes a new one, and replicas agree on it (docs/decisions/016-ofrep.md).
 */
function bulkEtag(createdAt: number, body: unknown): string {
  const hash = createHash('sha256').update(`${createdAt}\n${JSON.stringify(body)}`);
  return `"${hash.digest('base64url')}"`;
}

/** If-None-Match (RFC 9110 13.1.2): `*` or a list of tags, compared weakly (W/ ignored). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

function sendOfrepError(
  error: FastifyError | ApiError | OfrepHttpError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const key = (request.params as { key?: unknown } | undefined)?.key;
  const send = (status: number, errorCode: string, errorDetails: string) => {
    const body: OfrepError = {
      ...(typeof key === 'string' && { key }),
      errorCode,
      errorDetails,
    };
    return reply.status(status).send(body);
  };
  if (error instanceof OfrepHttpError)
    return send(error.statusCode, error.errorCode, error.message);
  // The rate limit (429, Retry-After already set) and the cross-site check (403).
  if (error instanceof ApiError) return send(error.statusCode, 'GENERAL', error.message);
  if (error.validation && error.validation.length > 0) {
    const issue = error.validation[0] as {
      instancePath?: string;
      params?: Record<string, unknown>;
      message?: string;
    };
    const field = fieldOfValidationIssue(issue);
    const where = [error.validationContext, field].filter(Boolean).join('.');
    const problem =
      issue.params?.missingProperty !== undefined ? 'is required' : (issue.message ?? 'is invalid');
    // A bad context is INVALID_CONTEXT; any other malformed request is PARSE_ERROR.
    const code =
      error.validationContext === 'body' && field?.split('.')[0] === 'context'
        ? 'INVALID_CONTEXT'
        : 'PARSE_ERROR';
    return send(400, code, `${where || 'request'} ${problem}`);
  }
  const status = error.statusCode ?? 500;
  if (!(status >= 400 && status < 500) && isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'ofrep: database unavailable');
    reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
    return send(503, 'GENERAL', 'The flag service cannot reach its database right now');
  }
  // Fastify's own 4xx before the handler: a body that is not JSON, an empty body, a media type.
  if (status >= 400 && status < 500) return send(status, 'PARSE_ERROR', error.message);
  request.log.error({ err: error }, 'ofrep evaluation failed');
  return send(500, 'GENERAL', 'Internal Server Error');
}
