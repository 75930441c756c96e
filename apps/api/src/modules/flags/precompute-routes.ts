import { STATUS_CODES } from 'node:http';
import { isDatabaseUnavailable } from '../../db/database.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, fieldOfValidationIssue } from '../../http/error-handler.js';
import { ApiError } from '../../http/errors.js';
import { parseTargetingAttributes } from './attributes.js';
import type { EvaluationLogger } from './flagging-core.js';
import { precomputeAssignments } from './precompute.js';
import { PrecomputeCache } from './precompute-cache.js';
import type { FlagsRepository } from './repository.js';
import {
  JsonApiErrorsSchema,
  PrecomputeQuerySchema,
  PrecomputeRequestSchema,
  PrecomputeResponseSchema,
  type JsonApiErrors,
} from './schemas.js';

/**
 * The provider reads an error's detail only when the content type is exactly
 * `application/json` or `application/vnd.api+json` (no charset parameter), and JSON:API forbids
 * media type parameters anyway; Fastify would otherwise append `; charset=utf-8`.
 */
export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

export interface PrecomputeRoutesOptions {
  flags: FlagsRepository;
  now: () => number;
  /** Results per subject (precompute-cache.ts); a fresh one by default. */
  cache?: PrecomputeCache;
}

/**
 * `POST /flags/precompute-assignments`: the Datadog flag service protocol the browser provider
 * (`flaggingProxy`) speaks. Its own plugin scope: JSON:API body parser and error shape.
 */
export const precomputeRoutes: FastifyPluginAsyncTypebox<PrecomputeRoutesOptions> = async (
  app,
  { flags, now, cache = new PrecomputeCache() },
) => {
  app.addContentTypeParser(
    JSON_API_MEDIA_TYPE,
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );
  app.setErrorHandler(sendJsonApiError);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-type', JSON_API_MEDIA_TYPE);
    return payload;
  });

  app.post(
    '/flags/precompute-assignments',
    {
      schema: {
        tags: ['flags'],
        summary:
          "Every flag's assignment for one subject (Datadog precompute-assignments protocol)",
        description:
          'Body `application/vnd.api+json` (or `application/json`). Attributes arrive as strings and are read back into numbers, booleans and null before evaluation. Errors answer `{"errors":[{"detail"}]}`.',
        consumes: [JSON_API_MEDIA_TYPE, 'application/json'],
        produces: [JSON_API_MEDIA_TYPE],
        querystring: PrecomputeQuerySchema,
        body: PrecomputeRequestSchema,
        response: {
          200: PrecomputeResponseSchema,
          '4xx': JsonApiErrorsSchema,
          '5xx': JsonApiErrorsSchema,
        },
      },
    },
    async (request) => {
      const { subject, env } = request.body.data.attributes;
      const { configuration, flags: served } = await flags.getServingSnapshot();
      // The wire form names the subject: equal strings are typed into equal attributes.
      const subjectKey = JSON.stringify([
        subject.targeting_key ?? '',
        subject.targeting_attributes ?? {},
      ]);
      const nowMs = now();
      const { result, computed } = cache.resolve(served, subjectKey, nowMs, () =>
        precomputeAssignments(
          served,
          {
            targetingKey: subject.targeting_key,
            attributes: parseTargetingAttributes(subject.targeting_attributes ?? {}),
          },
          evaluationLogger(request.log),
          nowMs,
        ),
      );
      // Logged when the answer is computed, not when a kept one is served again.
      for (const dropped of computed ? result.dropped : []) {
        request.log.warn(dropped, 'flag left out of precomputed assignments');
      }
      return {
        data: {
          id: subject.targeting_key ?? '',
          type: 'precomputed-assignments' as const,
          attributes: {
            createdAt: configuration?.createdAt ?? 0,
            environment: {
              name: request.query.dd_env || env?.dd_env || configuration?.environment || 'default',
            },
            flags: result.flags,
          },
        },
      };
    },
  );
};

function sendJsonApiError(
  error: FastifyError | ApiError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let status = error instanceof ApiError ? error.statusCode : (error.statusCode ?? 500);
  let detail = error.message;
  let pointer: string | undefined;
  if (!(error instanceof ApiError) && error.validation && error.validation.length > 0) {
    const issue = error.validation[0] as {
      instancePath?: string;
      params?: Record<string, unknown>;
      message?: string;
    };
    const field = fieldOfValidationIssue(issue);
    const missing = issue.params?.missingProperty !== undefined;
    status = 400;
    detail = field
      ? `${field} ${missing ? 'is required' : (issue.message ?? 'is invalid')}`
      : `${error.validationContext ?? 'request'} ${issue.message ?? 'is invalid'}`;
    if (field && error.validationContext === 'body') pointer = `/${field.split('.').join('/')}`;
  }
  if (isDatabaseUnavailable(error)) {
    // The browser's provider then serves every flag's default (docs/requirements.md ).
    request.log.warn({ err: error }, 'precompute-assignments: database unavailable');
    status = 503;
    detail = 'The flag service cannot reach its database right now; try again in a few seconds';
    reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
  } else if (status >= 500) {
    request.log.error({ err: error }, 'precompute-assignments failed');
    detail = 'Internal Server Error';
  }
  const body: JsonApiErrors = {
    errors: [
      {
        status: String(status),
        title: STATUS_CODES[status] ?? 'Error',
        detail,
        ...(pointer !== undefined && { source: { pointer } }),
      },
    ],
  };
  return reply.status(status).send(body);
}

/** flagging-core logs `debug(message, context)`; pino wants `(context, message)`. */
export function evaluationLogger(log: FastifyBaseLogger): EvaluationLogger {
  const forward =
    (level: 'error' | 'warn' | 'info' | 'debug') => (message: unknown, context?: unknown) => {
      log[level](typeof context === 'object' && context !== null ? context : {}, String(message));
    };
  return {
    error: forward('error'),
    warn: forward('warn'),
    info: forward('info'),
    debug: forward('debug'),
  };
}
