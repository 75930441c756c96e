import { randomFillSync } from 'node:crypto';

/**
 * Random bytes handed out from a pool refilled by the system's CSPRNG: one crypto call per
 * 4 KiB instead of one per id. Every request mints trace and span ids (request-tracing.ts) and
 * many mint a random id (session/random-id.ts); a byte is never handed out twice, so ids are as
 * unguessable as with one `randomBytes` call each.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

function take(bytes: number): number {
  if (bytes > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} random bytes at a time`);
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const start = offset;
  offset += bytes;
  return start;
}

/** `bytes` random bytes as lower-case hex. */
export function randomHex(bytes: number): string {
  const start = take(bytes);
  return pool.toString('hex', start, start + bytes);
}

/** `bytes` random bytes as base64url (no padding). */
export function randomBase64url(bytes: number): string {
  const start = take(bytes);
  return pool.toString('base64url', start, start + bytes);
}
