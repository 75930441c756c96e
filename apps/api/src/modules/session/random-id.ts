import { randomBase64url } from '../../http/random-bytes.js';

/**
 * Bytes of randomness in every id and token: 128 bits, unguessable; 22 base64url characters,
 * the length the contract's randomIdPattern checks.
 */
const RANDOM_ID_BYTES = 16;

/**
 * A random, prefixed, URL-safe id such as `ord_Xk2…` (22 base64url characters after the
 * prefix). Used for sessions, cart lines, orders, payments and payment-method tokens: no
 * sequence to enumerate, and the prefix says what the id names.
 */
export function randomId(prefix: string): string {
  return `${prefix}_${randomBase64url(RANDOM_ID_BYTES)}`;
}
