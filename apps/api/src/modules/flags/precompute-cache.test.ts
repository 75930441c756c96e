import { describe, expect, it } from 'vitest';
import { deepFreeze } from './deep-freeze.js';
import { precomputeAssignments, type PrecomputeResult } from './precompute.js';
import { PRECOMPUTE_CACHE_MAX_KEY_LENGTH, PrecomputeCache } from './precompute-cache.js';
import { createStaticAllocation, createUfcFlag } from './test-support.js';
import type { UfcFlag } from './ufc.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const HOUR = 3_600_000;
const quiet = { error() {}, warn() {}, info() {}, debug() {} };

/** Flags as repository.ts serves them: the array and every flag frozen. */
const served = (...flags: UfcFlag[]) => deepFreeze(flags);

const banner = (allocation = createStaticAllocation('all', 'on')) =>
  createUfcFlag('banner', 'BOOLEAN', { on: true, off: false }, [
    allocation,
    createStaticAllocation('rest', 'off'),
  ]);

/** Resolves through the cache, counting the evaluations it lets through. */
function resolver(cache: PrecomputeCache) {
  const calls = { count: 0 };
  const resolve = (flags: readonly UfcFlag[], targetingKey: string, nowMs = NOW) =>
    cache.resolve(flags, targetingKey, nowMs, (): PrecomputeResult => {
      calls.count += 1;
      return precomputeAssignments(flags, { targetingKey, attributes: {} }, quiet, nowMs);
    });
  return { calls, resolve };
}

describe('PrecomputeCache', () => {
  it('answers the same subject once from the evaluator, then from the cache', () => {
    const flags = served(banner());
    const { calls, resolve } = resolver(new PrecomputeCache());
    const first = resolve(flags, 'ann');
    const second = resolve(flags, 'ann');
    expect(first.computed).toBe(true);
    expect(second).toEqual({ result: first.result, computed: false });
    expect(resolve(flags, 'bob').computed).toBe(true);
    expect(calls.count).toBe(2);
  });

  it('evaluates again once the served flags are another array (the configuration changed)', () => {
    const { calls, resolve } = resolver(new PrecomputeCache());
    resolve(served(banner()), 'ann');
    const changed = resolve(served(banner(createStaticAllocation('all', 'off'))), 'ann');
    expect(changed.computed).toBe(true);
    expect(changed.result.flags.banner?.variationKey).toBe('off');
    expect(calls.count).toBe(2);
  });

  it('evaluates again when an allocation opens or closes, exactly at its time', () => {
    const startAt = NOW + HOUR;
    const endAt = NOW + 2 * HOUR;
    const flags = served(
      banner(
        createStaticAllocation('window', 'on', undefined, {
          startAt: new Date(startAt).toISOString(),
          endAt: new Date(endAt).toISOString(),
        }),
      ),
    );
    const { calls, resolve } = resolver(new PrecomputeCache());
    const variationAt = (nowMs: number) =>
      resolve(flags, 'ann', nowMs).result.flags.banner?.variationKey;

    expect(variationAt(NOW)).toBe('off');
    expect(variationAt(startAt - 1)).toBe('off');
    expect(calls.count).toBe(1);
    expect(variationAt(startAt)).toBe('on');
    expect(variationAt(endAt - 1)).toBe('on');
    expect(calls.count).toBe(2);
    expect(variationAt(endAt)).toBe('off');
    expect(calls.count).toBe(3);
  });

  it('lets the least recently used subject go first when the assignments exceed the bound', () => {
    const flags = served(banner()); // one assignment: each result weighs 2
    const { calls, resolve } = resolver(new PrecomputeCache(4));
    resolve(flags, 'ann');
    resolve(flags, 'bob');
    resolve(flags, 'ann'); // ann is now the most recently used
    resolve(flags, 'cid'); // bob goes
    expect(calls.count).toBe(3);
    expect(resolve(flags, 'ann').computed).toBe(false);
    expect(resolve(flags, 'cid').computed).toBe(false);
    expect(resolve(flags, 'bob').computed).toBe(true);
  });

  it('keeps no result heavier than the whole bound', () => {
    const cache = new PrecomputeCache(1);
    const { calls, resolve } = resolver(cache);
    resolve(served(banner()), 'ann');
    expect(cache.size).toBe(0);
    expect(calls.count).toBe(1);
  });

  it('weighs a subject by its length as well, and keeps none longer than the limit', () => {
    const flags = served(banner());
    const cache = new PrecomputeCache(6);
    const { calls, resolve } = resolver(cache);
    resolve(flags, 'x'.repeat(3 * 128)); // 1 assignment + 3 for the key
    resolve(flags, 'ann'); // 1 + 1: still fits
    resolve(flags, 'bob'); // 1 + 1: the long one goes
    expect(cache.size).toBe(2);
    expect(resolve(flags, 'x'.repeat(3 * 128)).computed).toBe(true);

    const roomy = new PrecomputeCache();
    const long = 'y'.repeat(PRECOMPUTE_CACHE_MAX_KEY_LENGTH + 1);
    resolver(roomy).resolve(flags, long);
    expect(roomy.size).toBe(0);
    expect(calls.count).toBe(4);
  });

  it('freezes the results it keeps, as every answer to the subject shares them', () => {
    const { resolve } = resolver(new PrecomputeCache());
    const { result } = resolve(served(banner()), 'ann');
    expect(Object.isFrozen(result.flags)).toBe(true);
    expect(Object.isFrozen(result.flags.banner)).toBe(true);
    expect(Object.isFrozen(result.flags.banner?.extraLogging)).toBe(true);
  });

  it('keeps nothing for a flags array that is not frozen (not the served, shared one)', () => {
    const flags = [banner()];
    const cache = new PrecomputeCache();
    const { calls, resolve } = resolver(cache);
    resolve(flags, 'ann');
    resolve(flags, 'ann');
    expect(calls.count).toBe(2);
    expect(cache.size).toBe(0);
  });
});
