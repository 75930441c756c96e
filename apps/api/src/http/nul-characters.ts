import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

/** The path of the first string holding U+0000 in a parsed value (`items.0.name`), or null. */
export function pathOfNul(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, child] of Object.entries(value)) {
    const found = pathOfNul(child, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000 (SQLite can): a NUL in a path parameter, query or JSON body
 * would fail the query with a 500 on one database only. Refused for both, as a 400 naming the
 * field (docs/architecture.md "Errors"), after the route's schema passed and before its handler.
 */
export function registerNulCheck(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const schema = request.routeOptions.schema ?? {};
    const parts = [
      ['params', schema.params, request.params],
      ['querystring', schema.querystring, request.query],
      ['body', schema.body, request.body],
    ] as const;
    for (const [where, declared, value] of parts) {
      if (!declared) continue;
      const path = pathOfNul(value);
      if (!path) continue;
      const field = path.join('.');
      throw badRequest(
        field || where,
        `${where}${field ? `.${field}` : ''} must not contain NUL (U+0000) characters`,
      );
    }
  });
}
