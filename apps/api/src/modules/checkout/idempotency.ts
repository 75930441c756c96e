import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { prepareSharedQuery, prepareSharedStatement } from '../../db/prepared.js';

/**
 * JSON with object keys sorted at every level, so two equal requests give equal text whatever
 * the order the client wrote their keys in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A keyed hash of a request, to tell a retry from a different request under the same key.
 * Keyed (HMAC-SHA256) because the body holds a card number: a plain hash of a card number is
 * guessable by brute force (PCI DSS 3.5.1), a keyed one is not without the server's secret.
 */
export function requestFingerprint(secret: string, request: unknown): string {
  return createHmac('sha256', secret).update(canonicalJson(request)).digest('base64url');
}

export interface StoredIdempotentResult {
  fingerprint: string;
  statusCode: number | null;
  body: string | null;
}

// Every order with an Idempotency-Key runs these: compiled once (db/prepared.ts).
const claimKey = prepareSharedStatement(
  (db: Kysely<Database>, sessionId: string, key: string, fingerprint: string, createdAt: string) =>
    db
      .insertInto('idempotency_keys')
      .values({
        session_id: sessionId,
        key,
        request_fingerprint: fingerprint,
        status_code: null,
        response_body: null,
        created_at: createdAt,
      })
      .onConflict((oc) => oc.columns(['session_id', 'key']).doNothing()),
);

const storedResult = prepareSharedQuery((db: Kysely<Database>, sessionId: string, key: string) =>
  db
    .selectFrom('idempotency_keys')
    .select(['request_fingerprint', 'status_code', 'response_body'])
    .where('session_id', '=', sessionId)
    .where('key', '=', key),
);

const completeKey = prepareSharedStatement(
  (db: Kysely<Database>, sessionId: string, key: string, statusCode: number, body: string) =>
    db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, response_body: body })
      .where('session_id', '=', sessionId)
      .where('key', '=', key),
);

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;

/** Idempotency keys per session; use inside the transaction that does the work. */
export function createIdempotencyRepository(db: Kysely<Database>) {
  return {
    /**
     * Claims the key for this transaction. Answers false when the key is already taken. On
     * PostgreSQL a concurrent claim of the same key waits here until the first transaction
     * ends, so two retries racing each other cannot both place an order.
     */
    async claim(sessionId: string, key: string, fingerprint: string, now: Date): Promise<boolean> {
      const result = await claimKey(db, sessionId, key, fingerprint, now.toISOString());
      return Number(result.numAffectedRows ?? 0n) > 0;
    },

    async find(sessionId: string, key: string): Promise<StoredIdempotentResult | undefined> {
      const [row] = await storedResult(db, sessionId, key);
      return row
        ? {
            fingerprint: row.request_fingerprint,
            statusCode: row.status_code,
            body: row.response_body,
          }
        : undefined;
    },

    async complete(
      sessionId: string,
      key: string,
      statusCode: number,
      body: unknown,
    ): Promise<void> {
      await completeKey(db, sessionId, key, statusCode, JSON.stringify(body));
    },
  };
}
