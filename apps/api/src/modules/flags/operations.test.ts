import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import {
  allocationRolloutPercentage,
  setAllocationRollout,
  setAllocationRules,
  setFlagEnabled,
} from './operations.js';
import { createStaticAllocation, createUfcFlag } from './test-support.js';

const flag = createUfcFlag('f', 'STRING', { a: 'a', b: 'b' }, [
  {
    key: 'ab-test',
    splits: [
      {
        variationKey: 'a',
        shards: [{ salt: 'split', totalShards: 100, ranges: [{ start: 0, end: 50 }] }],
      },
      {
        variationKey: 'b',
        shards: [{ salt: 'split', totalShards: 100, ranges: [{ start: 50, end: 100 }] }],
      },
    ],
  },
  { key: 'empty', splits: [] },
  createStaticAllocation('default', 'a'),
]);

const thrown = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
};

describe('flag operations', () => {
  it('computes an allocation rollout from its shards', () => {
    expect(flag.allocations.map(allocationRolloutPercentage)).toEqual([100, 0, 100]);
  });

  it('rolls an experiment out through one traffic shard per split', () => {
    const change = setAllocationRollout(flag, 'ab-test', 12.345);
    const allocation = change?.flag.allocations[0];
    expect(allocation && allocationRolloutPercentage(allocation)).toBe(12.35);
    expect(allocation?.splits[0]?.shards).toEqual([
      { salt: 'f-ab-test-traffic', totalShards: 10_000, ranges: [{ start: 0, end: 1235 }] },
      { salt: 'split', totalShards: 100, ranges: [{ start: 0, end: 50 }] },
    ]);
    // Setting it again replaces the traffic shard instead of adding one.
    const again = setAllocationRollout(change!.flag, 'ab-test', 40);
    expect(again?.flag.allocations[0]?.splits[1]?.shards).toHaveLength(2);
    expect(setAllocationRollout(again!.flag, 'ab-test', 40)).toBeNull();
  });

  it('refuses to roll out an allocation without a split (409) and names an unknown allocation (400)', () => {
    expect(thrown(() => setAllocationRollout(flag, 'empty', 5))).toMatchObject({
      statusCode: 409,
      code: 'ALLOCATION_HAS_NO_SPLIT',
      field: 'allocationKey',
    });
    const unknown = thrown(() => setAllocationRules(flag, 'nope', []));
    expect(unknown).toBeInstanceOf(ApiError);
    expect(unknown).toMatchObject({ statusCode: 400, field: 'allocationKey' });
  });

  it('leaves the input flag untouched and reports no-ops as null', () => {
    const before = JSON.stringify(flag);
    setFlagEnabled(flag, false);
    setAllocationRules(flag, 'default', [
      { conditions: [{ attribute: 'team', operator: 'ONE_OF', value: ['x'] }] },
    ]);
    expect(JSON.stringify(flag)).toBe(before);
    expect(setFlagEnabled(flag, true)).toBeNull();
  });
});
