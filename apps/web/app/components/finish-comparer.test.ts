import { describe, expect, it } from 'vitest';
import { shadeFinishes } from './finish-comparer';

describe('the long-animation-frame demo workload', () => {
  it('scores every finish from 0 to 99, the same for the same seed', () => {
    const scores = shadeFinishes(42, 10_000);
    expect(scores).toHaveLength(6);
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0);
    for (const score of scores) expect(score).toBeLessThan(100);
    expect(shadeFinishes(42, 10_000)).toEqual(scores);
    expect(shadeFinishes(43, 10_000)).not.toEqual(scores);
  });
});
