import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

/**
 * The path of the first string holding U+0000 in a parsed value (`items.0.name`), a key
 * included (its path ends with the key), or null.
 */
export function pathOfNul(value: unknown): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  // The path is built only for the string found: a value without NUL allocates nothing.
  for (const key of Object.keys(value)) {
    if (key.includes('\u0000')) return [key];
    const found = pathOfNul((value as Record<string, unknown>)[key]);
    if (found) {
      found.unshift(key);
      return found;
    }
  }
  return null;
}

/**
 * Whether a JSON text may hold U+0000 in a string: JSON writes that character only as the
 * escape `\u0000` (a raw control character is not JSON), so a text without it holds none.
 */
export function jsonMayHoldNul(text: string): boolean {
  return text.includes('\\u0000');
}

/**
 * PostgreSQL text cannot hold U+0000 (SQLite can): a NUL in a path parameter, query or JSON body
 * would fail the query with a 500 on one database only. Refused for both, as a 400 naming the
 * field (docs/architecture.md "Errors"), after the route's schema passed and before its handler.
 */
export function registerNulCheck(app: FastifyInstance): void {
  // A callback hook, as every request runs it: an async hook would cost a promise each.
  app.addHook('preHandler', (request, _reply, done) => {
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
      done(
        badRequest(
          field || where,
          `${where}${field ? `.${field}` : ''} must not contain NUL (U+0000) characters`,
        ),
      );
      return;
    }
    done();
  });
}
