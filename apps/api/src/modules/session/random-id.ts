import { randomBase64url } from '../../http/random-bytes.js';

/**
 * Bytes of randomness in every id and token: 128 bits, unguessable; 22 base64url characters,
 * the length the contract's randomIdPattern checks.
 */
const RANDOM_ID_BYTES = 16;

/**
 * A random, prefixed, URL-safe id such as `ses_Xk2…` (22 base64url characters after the
 * prefix). Used for sessions, accounts, payment methods and tokens: no sequence to enumerate,
 * nothing about when it was made, and the prefix says what the id names.
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
/** Characters of a record id's random part: 84 bits, still unguessable. */
const RECORD_RANDOM_CHARACTERS = 14;
/** Random bytes that give at least RECORD_RANDOM_CHARACTERS base64url characters. */
const RECORD_RANDOM_BYTES = Math.ceil((RECORD_RANDOM_CHARACTERS * 6) / 8);

/**
 * The id of a row the shop stores in volume and never looks up by guessing (an order, its
 * lines, its payment, a cart line, loyalty points): `ord_` + 22 base64url characters, as
 * randomId, of which the first 8 are the creation time in milliseconds and the other 14 are
 * random (84 bits). Ids made later sort after earlier ones, so a new row's primary-key entry
 * goes to the end of its index, where the rows written just before it are, and a commit writes
 * one leaf page for many rows instead of one each (docs/decisions/027-time-ordered-record-ids.md).
 * Sessions, accounts, tokens and charges keep randomId: their ids say nothing about when.
 */
export function recordId(prefix: string, now = Date.now()): string {
  let time = '';
  let rest = now;
  for (let i = 0; i < TIME_CHARACTERS; i++) {
    time = BYTE_ORDERED_ALPHABET[rest % 64] + time;
    rest = Math.floor(rest / 64);
  }
  return `${prefix}_${time}${randomBase64url(RECORD_RANDOM_BYTES).slice(0, RECORD_RANDOM_CHARACTERS)}`;
}
