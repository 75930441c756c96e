import { afterEach, describe, expect, it, vi } from 'vitest';
import { startGuardChecker } from './guard-service.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('startGuardChecker', () => {
  it('checks every interval, never two checks at once, logs a failure and stops', async () => {
    vi.useFakeTimers();
    let calls = 0;
    let release: (() => void) | undefined;
    const service = {
      checkDue: vi.fn(async () => {
        calls += 1;
        if (calls === 2) await new Promise<void>((resolve) => (release = resolve));
        if (calls === 3) throw new Error('database gone');
        return [];
      }),
    };
    const log = { error: vi.fn() };
    const checker = startGuardChecker(service, 1_000, log);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    // The second check is still running: the next ticks wait for it.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(calls).toBe(2);
    release?.();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(3);
    expect(log.error).toHaveBeenCalledTimes(1);
    await checker.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(3);
  });
});
