import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '@showroom/contracts/errors';
import { ApiError, errorBody, RetryLaterError } from './errors.js';
import { isDatabaseUnavailable } from '../db/database.js';

/** Retry-After of a 503 DATABASE_UNAVAILABLE, in seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

interface ValidationIssue {
  instancePath?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** Names the offending field of an Ajv validation error: `limit`, `items.0.quantity`. */
export function fieldOfValidationIssue(issue: ValidationIssue): string | undefined {
  const path = (issue.instancePath ?? '').split('/').filter(Boolean);
  const missing = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  if (typeof missing === 'string') path.push(missing);
  return path.length > 0 ? path.join('.') : undefined;
}

/** One error handler for the whole api: typed errors keep their status, 5xx details stay in the log. */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error instanceof RetryLaterError) reply.header('retry-after', error.retryAfterSeconds);
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.field));
    }
    if (error.validation && error.validation.length > 0) {
      const issue = error.validation[0] as ValidationIssue;
      const field = fieldOfValidationIssue(issue);
      const where = error.validationContext ? `${error.validationContext}` : 'request';
      const message = field
        ? `${where}.${field} ${issue.message ?? 'is invalid'}`
        : `${where} ${issue.message ?? 'is invalid'}`;
      return reply.status(400).send(errorBody('VALIDATION_ERROR', message, field));
    }
    const status = error.statusCode ?? 500;
    // The database is away (stopped, restarting, unreachable): a clear 503 the browser may retry,
    // not a 500; the next request tries again, so the api recovers once it is back. A framework
    // error with a 4xx status is the client's (a body cut off by the client is ECONNRESET too).
    if (!(status >= 400 && status < 500) && isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
      return reply
        .status(503)
        .send(
          errorBody(
            'DATABASE_UNAVAILABLE',
            'The shop cannot reach its database right now; try again in a few seconds',
          ),
        );
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(clientErrorCode(status), error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody('INTERNAL', 'Internal Server Error'));
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(
        errorBody('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`),
      ),
  );
}

/**
 * Errors Fastify raises before routing (a broken percent-encoding in the path:
 * FST_ERR_BAD_URL), which do not reach the error handler: answered in the same envelope.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 400;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed before routing');
    void reply.status(500).send(errorBody('INTERNAL', 'Internal Server Error'));
    return;
  }
  const message =
    error.code === 'FST_ERR_BAD_URL' ? 'The URL has a broken percent-encoding' : error.message;
  void reply.status(status).send(errorBody(clientErrorCode(status), message));
}

/** The contract's code for a 4xx that Fastify raised itself (body parsing, limits, media type). */
export function clientErrorCode(status: number): ErrorCode {
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}
