/** The part of Web Crypto used here; `globalThis.crypto` in browsers and Node. */
export interface RandomSourceCrypto {
  randomUUID?: () => string;
  getRandomValues(array: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer>;
}

/**
 * A fresh key for one checkout attempt (the api's `Idempotency-Key`): a random UUID v4.
 * `randomUUID` exists only in secure contexts, so a deployment served over plain http on a
 * non-localhost host builds the UUID from `getRandomValues` (RFC 9562 §5.4).
 */
export function newIdempotencyKey(crypto: RandomSourceCrypto = globalThis.crypto): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
