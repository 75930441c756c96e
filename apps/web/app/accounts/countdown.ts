import {
  VERIFICATION_RESEND_INTERVAL_MS,
  type PendingVerification,
} from '@showroom/contracts/accounts';

/**
 * Seconds until a new code may be asked for. The api's `resendAfter` is its own clock; this
 * browser's clock may differ, so the wait is never longer than the api's interval (a minute)
 * and never negative.
 */
export function resendWaitSeconds(
  pending: Pick<PendingVerification, 'resendAfter'>,
  now: number,
): number {
  const at = Date.parse(pending.resendAfter);
  if (!Number.isFinite(at)) return 0;
  const seconds = Math.ceil((at - now) / 1000);
  return Math.min(Math.max(seconds, 0), VERIFICATION_RESEND_INTERVAL_MS / 1000);
}

/** A countdown as a clock: `0:42`, `1:00`. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** When a code stops working, in the shopper's words: `10 minutes`, `1 minute`, `expired`. */
export function expiresIn(pending: Pick<PendingVerification, 'expiresAt'>, now: number): string {
  const minutes = Math.ceil((Date.parse(pending.expiresAt) - now) / 60_000);
  if (!Number.isFinite(minutes) || minutes <= 0) return 'expired';
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}
