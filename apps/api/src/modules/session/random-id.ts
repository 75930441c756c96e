import { randomBase64url } from '../../http/random-bytes.js';

/**
 * Bytes of randomness in a randomId: 128 bits, unguessable; 22 base64url characters, the length
 * the contract's randomIdPattern checks.
 */
const RANDOM_ID_BYTES = 16;

/**
 * A random, prefixed, URL-safe id such as `ses_Xk2…` (22 base64url characters after the
 * prefix). Used for every id that is not a recordId: sessions (the shopper's cookie), accounts,
 * loyalty memberships, saved payment methods, the gateway's charges and tokens, outbox
 * messages. No sequence to enumerate, nothing about when it was made, and the prefix says what
 * the id names.
 */
export function randomId(prefix: string): string {
  return `${prefix}_${randomBase64url(RANDOM_ID_BYTES)}`;
}

/**
 * The 64 base64url characters in byte order, so that SQLite's BINARY comparison of two ids
 * orders them as the numbers they encode.
 */
const BYTE_ORDERED_ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** Characters of a record id's time part: 48 bits of milliseconds, up to the year 10889. */
const TIME_CHARACTERS = 8;
const TIME_LIMIT = BYTE_ORDERED_ALPHABET.length ** TIME_CHARACTERS;
/** Characters of a record id's random part: 84 bits, still unguessable. */
const RECORD_RANDOM_CHARACTERS = 14;
/**
 * Random bytes that fill RECORD_RANDOM_CHARACTERS base64url characters, every bit of them
 * random (10 bytes would leave 4 bits of the last one zero).
 */
const RECORD_RANDOM_BYTES = Math.ceil((RECORD_RANDOM_CHARACTERS * 6) / 8);

/**
 * The id of a row the shop stores in volume and finds only through the session that owns it
 * (an order, its lines, its payment, a cart line, loyalty points), made at `at` (the request's
 * time, as in the row's own timestamp): `ord_` + 22 base64url characters, as randomId, of which
 * the first 8 are the time in milliseconds and the other 14 are random (84 bits). An id made in
 * a later millisecond sorts after an earlier one (within one millisecond the order is random),
 * so a new row's key goes to the end of its index, where the rows written just before it are,
 * and a commit writes one leaf page for many rows instead of one each
 * (docs/decisions/027-time-ordered-record-ids.md). Every other id is a randomId.
 */
export function recordId(prefix: string, at: Date): string {
  const millis = at.getTime();
  if (!Number.isSafeInteger(millis) || millis < 0 || millis >= TIME_LIMIT) {
    throw new RangeError(
      `a record id's time must be a millisecond from 0 to ${TIME_LIMIT - 1}: ${millis}`,
    );
  }
  let time = '';
  let rest = millis;
  for (let i = 0; i < TIME_CHARACTERS; i++) {
    time = BYTE_ORDERED_ALPHABET[rest % BYTE_ORDERED_ALPHABET.length] + time;
    rest = Math.floor(rest / BYTE_ORDERED_ALPHABET.length);
  }
  return `${prefix}_${time}${randomBase64url(RECORD_RANDOM_BYTES).slice(0, RECORD_RANDOM_CHARACTERS)}`;
}
