import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorCode } from '@showroom/contracts/errors';
import { ApiError, errorBody } from './errors.js';

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

/** The contract's code for a 4xx that Fastify raised itself (body parsing, limits, media type). */
export function clientErrorCode(status: number): ErrorCode {
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}
