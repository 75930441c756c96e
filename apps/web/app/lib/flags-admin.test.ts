import { describe, expect, it } from 'vitest';
import { describeCondition, parseRuleValue } from './flags-admin';

describe('flag rule editor values', () => {
  it('reads a comma-separated list for ONE_OF', () => {
    expect(parseRuleValue('ONE_OF', ' sales, marketing ,,support')).toEqual([
      'sales',
      'marketing',
      'support',
    ]);
  });

  it('reads numbers for comparisons and keeps bad input detectable', () => {
    expect(parseRuleValue('GTE', '25')).toBe(25);
    expect(parseRuleValue('LT', 'abc')).toBeNaN();
    expect(parseRuleValue('GT', '')).toBeNaN();
  });

  it('reads IS_NULL as a boolean and MATCHES as text', () => {
    expect(parseRuleValue('IS_NULL', 'false')).toBe(false);
    expect(parseRuleValue('IS_NULL', 'true')).toBe(true);
    expect(parseRuleValue('MATCHES', '@example\\.com$')).toBe('@example\\.com$');
  });

  it('describes a condition for people', () => {
    expect(
      describeCondition({ attribute: 'team', operator: 'ONE_OF', value: ['sales', 'support'] }),
    ).toBe('team one of sales, support');
  });
});
