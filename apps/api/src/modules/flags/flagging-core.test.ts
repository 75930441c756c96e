import { describe, expect, it } from 'vitest';
import { precomputeAssignments } from './precompute.js';
import { createStaticAllocation, createUfcFlag } from './test-support.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const QUIET = { error() {}, warn() {}, info() {}, debug() {} };
const fromCountry = (country: string) => [
  { conditions: [{ attribute: 'country', operator: 'ONE_OF', value: [country] }] },
];

const flags = [
  // An INTEGER flag with one mistyped variation, reached only by the second allocation.
  createUfcFlag('partly_mistyped', 'INTEGER', { one: 1, pi: 3.14 }, [
    createStaticAllocation('canada', 'one', fromCountry('CA')),
    createStaticAllocation('everyone', 'pi'),
  ]),
  // A split to a variation that does not exist, before a valid allocation.
  createUfcFlag('dangling_split', 'STRING', { current: 'current' }, [
    createStaticAllocation('future', 'future', fromCountry('NL')),
    createStaticAllocation('everyone', 'current'),
  ]),
  createUfcFlag('healthy', 'BOOLEAN', { on: true }, [createStaticAllocation('all', 'on')]),
];

const assign = (country: string) =>
  precomputeAssignments(flags, { targetingKey: 'subject-1', attributes: { country } }, QUIET, NOW);

describe('evaluating flags flagging-core refuses as a whole', () => {
  it('serves the valid variations of a flag that has a mistyped one', () => {
    const canadian = assign('CA');
    expect(canadian.flags.partly_mistyped).toMatchObject({
      variationKey: 'one',
      variationValue: 1,
    });
    expect(canadian.dropped).toEqual([]);
  });

  it('gives no assignment to the subjects a mistyped variation would reach, and says why', () => {
    const other = assign('US');
    expect(other.flags).not.toHaveProperty('partly_mistyped');
    expect(other.dropped).toEqual([
      {
        flagKey: 'partly_mistyped',
        reason: 'TYPE_MISMATCH',
        detail: 'variation "pi" is not a INTEGER',
      },
    ]);
    expect(other.flags.healthy).toMatchObject({ variationValue: true });
  });

  it('lets a split to a missing variation fall through to the next allocation', () => {
    expect(assign('NL').flags.dangling_split).toMatchObject({
      allocationKey: 'everyone',
      variationKey: 'current',
      variationValue: 'current',
    });
    expect(assign('US').flags.dangling_split).toMatchObject({ allocationKey: 'everyone' });
  });
});

describe('evaluating for a subject without a targeting key', () => {
  const sharded = createUfcFlag('sharded', 'BOOLEAN', { on: true }, [
    {
      key: 'everyone',
      splits: [
        {
          variationKey: 'on',
          shards: [{ salt: 's', totalShards: 10, ranges: [{ start: 0, end: 10 }] }],
        },
      ],
    },
  ]);

  it.each([
    ['empty', ''],
    ['absent', undefined],
  ])(
    'leaves a sharded flag unassigned when the key is %s, as no assignment rather than an error',
    (_case, targetingKey) => {
      const result = precomputeAssignments(
        [sharded, ...flags],
        { targetingKey, attributes: { country: 'CA' } },
        QUIET,
        NOW,
      );
      expect(result.flags).not.toHaveProperty('sharded');
      expect(result.flags.healthy).toMatchObject({ variationValue: true });
      expect(result.dropped).toEqual([]);
    },
  );
});
