import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRepeatingJob } from './repeating-job.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('startRepeatingJob', () => {
  it('runs every interval, never two runs at once, logs a failure and stops', async () => {
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
    const checker = startRepeatingJob(() => service.checkDue(), 1_000, log, 'guard check failed');
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
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'guard check failed');
    await checker.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(3);
  });
});
