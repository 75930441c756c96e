import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * A rate-limit store in SQL (docs/architecture.md "Scaling"): every replica counts the same
 * attempts, where the plugin's default store would let each replica allow its own `max`. One
 * upsert per attempt starts a new window or adds to the current one, atomically on SQLite and
 * PostgreSQL. Rows of past windows are purged by the retention job.
 */
export function sqlRateLimitStore(
  db: Kysely<Database>,
  now: () => number = Date.now,
): FastifyRateLimitStoreCtor {
  return class SqlRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    /** The plugin constructs it with its options; `child` with the route's key prefix. */
    constructor(from: FastifyRateLimitOptions | string) {
      this.prefix = typeof from === 'string' ? from : '';
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const at = now();
      db.insertInto('rate_limits')
        .values({ key: `${this.prefix}${key}`, window_start: at, hits: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => {
            const expired = eb(eb('rate_limits.window_start', '+', timeWindow), '<=', at);
            return {
              hits: eb
                .case()
                .when(expired)
                .then(1)
                .else(eb('rate_limits.hits', '+', 1))
                .end(),
              window_start: eb
                .case()
                .when(expired)
                .then(at)
                .else(eb.ref('rate_limits.window_start'))
                .end(),
            };
          }),
        )
        .returning(['hits', 'window_start'])
        .executeTakeFirstOrThrow()
        .then(
          (row) =>
            callback(null, {
              current: Number(row.hits),
              ttl: Math.max(0, Number(row.window_start) + timeWindow - at),
            }),
          (error: Error) => callback(error),
        );
    }

    // The plugin passes the route's merged options with the route as `routeInfo` (its typings
    // say otherwise): one counter per route and client.
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new SqlRateLimitStore(`${String(route?.method ?? '')}${String(route?.url ?? '')}-`);
    }
  };
}
