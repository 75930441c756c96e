import type { FastifyServerOptions } from 'fastify';

/**
 * Log paths pino blanks out. Fastify does not log request bodies, and nothing in the api logs a
 * card; these are the safety net for a future `log.info({ body })` or a serializer change:
 * bodies (card number, CVC), the session cookie and card-shaped objects at any depth of one.
 */
export const LOG_REDACT_PATHS = [
  'body',
  'req.body',
  'request.body',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'card',
  '*.card',
  'cvc',
  '*.cvc',
  '*.*.cvc',
] as const;

/** Adds LOG_REDACT_PATHS to a Fastify logger option (`true` or pino options). */
export function withLogRedaction(
  logger: FastifyServerOptions['logger'],
): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  const existing = options.redact;
  const paths = Array.isArray(existing) ? existing : (existing?.paths ?? []);
  const censor = Array.isArray(existing) ? undefined : existing?.censor;
  return {
    ...options,
    redact: { paths: [...paths, ...LOG_REDACT_PATHS], censor: censor ?? '[redacted]' },
  };
}
