import { describe, expect, it } from 'vitest';
import { expiresIn, formatCountdown, resendWaitSeconds } from './countdown';

const at = (iso: string) => Date.parse(iso);

describe('the resend countdown', () => {
  it('counts the seconds left, rounded up', () => {
    const pending = { resendAfter: '2025-01-01T10:01:00.000Z' };
    expect(resendWaitSeconds(pending, at('2025-01-01T10:00:00.000Z'))).toBe(60);
    expect(resendWaitSeconds(pending, at('2025-01-01T10:00:59.200Z'))).toBe(1);
    expect(resendWaitSeconds(pending, at('2025-01-01T10:01:00.000Z'))).toBe(0);
    expect(resendWaitSeconds(pending, at('2025-01-01T10:05:00.000Z'))).toBe(0);
  });

  it('never waits longer than the api interval, whatever this clock says', () => {
    const pending = { resendAfter: '2025-01-01T12:00:00.000Z' };
    expect(resendWaitSeconds(pending, at('2025-01-01T10:00:00.000Z'))).toBe(60);
    expect(resendWaitSeconds({ resendAfter: 'not a date' }, 0)).toBe(0);
  });

  it('reads like a clock', () => {
    expect(formatCountdown(60)).toBe('1:00');
    expect(formatCountdown(42)).toBe('0:42');
    expect(formatCountdown(5)).toBe('0:05');
    expect(formatCountdown(-3)).toBe('0:00');
  });

  it('says when a code expires', () => {
    const pending = { expiresAt: '2025-01-01T10:10:00.000Z' };
    expect(expiresIn(pending, at('2025-01-01T10:00:00.000Z'))).toBe('10 minutes');
    expect(expiresIn(pending, at('2025-01-01T10:09:30.000Z'))).toBe('1 minute');
    expect(expiresIn(pending, at('2025-01-01T10:10:00.000Z'))).toBe('expired');
  });
});
