import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { VERIFICATION_CODE_LENGTH } from '@showroom/contracts/accounts';

/** A uniformly random six-digit code, leading zeros kept. */
export function generateCode(): string {
  return String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(
    VERIFICATION_CODE_LENGTH,
    '0',
  );
}

/** The stored form of a code: an HMAC keyed by the server secret and bound to its session. */
export function hashCode(secret: string, sessionId: string, purpose: string, code: string): string {
  return createHmac('sha256', secret)
    .update(`${sessionId}\n${purpose}\n${code}`)
    .digest('base64url');
}

export function codeMatches(expectedHash: string, actualHash: string): boolean {
  const a = Buffer.from(expectedHash);
  const b = Buffer.from(actualHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
