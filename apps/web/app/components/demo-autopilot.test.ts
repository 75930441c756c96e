import { describe, expect, it } from 'vitest';
import {
  AUTOPILOT_REFRESH_MS,
  AUTOPILOT_STEP_SETTLE_MS,
  autopilotRefreshDelay,
} from './demo-autopilot';

describe('autopilotRefreshDelay', () => {
  const now = 1_800_000_000_000;

  it('reads a running schedule again once its next step is due and applied', () => {
    expect(autopilotRefreshDelay({ status: 'running', nextAt: now + 4_000 }, now)).toBe(
      4_000 + AUTOPILOT_STEP_SETTLE_MS,
    );
  });

  it('reads it soon when the step is already due, and at least every refresh period', () => {
    expect(autopilotRefreshDelay({ status: 'running', nextAt: now - 30_000 }, now)).toBe(
      AUTOPILOT_STEP_SETTLE_MS,
    );
    expect(autopilotRefreshDelay({ status: 'running', nextAt: now + 10 * 60_000 }, now)).toBe(
      AUTOPILOT_REFRESH_MS,
    );
    expect(autopilotRefreshDelay({ status: 'running', nextAt: null }, now)).toBe(
      AUTOPILOT_REFRESH_MS,
    );
  });

  it('reads a paused schedule every refresh period, an idle or finished one not at all', () => {
    expect(autopilotRefreshDelay({ status: 'paused', nextAt: null }, now)).toBe(
      AUTOPILOT_REFRESH_MS,
    );
    expect(autopilotRefreshDelay({ status: 'idle', nextAt: null }, now)).toBeNull();
    expect(autopilotRefreshDelay({ status: 'finished', nextAt: null }, now)).toBeNull();
  });
});
