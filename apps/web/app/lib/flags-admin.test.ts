import { describe, expect, it } from 'vitest';
import {
  describeCondition,
  guardBodyOfForm,
  guardInputOfField,
  parseRuleValue,
  parseSteps,
} from './flags-admin';

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

/** The guard form's fields as the browser posts them (input names of GUARD_INPUTS). */
function guardForm(fields: Record<string, string>): FormData {
  const form = new FormData();
  const base = {
    allocation: 'rollout',
    metricKind: 'payment-decline-rate',
    control: 'off',
    treatment: 'on',
    margin: '0.05',
    minSessions: '30',
    onTrip: 'rollback',
    steps: '',
    holdSeconds: '600',
    checkEverySeconds: '15',
  };
  for (const [name, value] of Object.entries({ ...base, ...fields })) form.set(name, value);
  return form;
}

describe('the guard form (docs/decisions/019-guarded-rollouts.md)', () => {
  it('reads the body of PUT /flags/{key}/guard, times in ms', () => {
    expect(guardBodyOfForm(guardForm({ steps: '5, 25 50,100' }))).toEqual({
      allocation: 'rollout',
      metric: { kind: 'payment-decline-rate' },
      control: 'off',
      treatment: 'on',
      margin: 0.05,
      minSessions: 30,
      action: 'rollback',
      steps: [5, 25, 50, 100],
      holdMs: 600_000,
      checkEveryMs: 15_000,
    });
  });

  it('leaves out empty steps and check interval, and the metric fields of other kinds', () => {
    const body = guardBodyOfForm(
      guardForm({
        metricKind: 'action-error-rate',
        metricAction: ' place order ',
        metricError: '',
        metricPage: '/checkout',
        checkEverySeconds: '',
      }),
    );
    expect(body.metric).toEqual({ kind: 'action-error-rate', action: 'place order' });
    expect(body).not.toHaveProperty('steps');
    expect(body).not.toHaveProperty('checkEveryMs');
    expect(
      guardBodyOfForm(guardForm({ metricKind: 'p75-lcp', metricPage: '/cart' })).metric,
    ).toEqual({ kind: 'p75-lcp', page: '/cart' });
  });

  it('keeps a number that does not read as NaN, sent as null for the api to name', () => {
    const body = guardBodyOfForm(guardForm({ margin: 'lots', steps: '5, many' }));
    expect(body.margin).toBeNaN();
    expect(JSON.parse(JSON.stringify(body))).toMatchObject({ margin: null, steps: [5, null] });
    expect(parseSteps(' 10 ,, 20 ')).toEqual([10, 20]);
  });

  it('finds the input of the field an api error names', () => {
    expect(guardInputOfField('steps.1')).toBe('steps');
    expect(guardInputOfField('metric.action')).toBe('metricAction');
    expect(guardInputOfField('metric')).toBe('metricKind');
    expect(guardInputOfField('holdMs')).toBe('holdSeconds');
    expect(guardInputOfField('action')).toBe('onTrip');
    expect(guardInputOfField('flag')).toBeUndefined();
    expect(guardInputOfField(undefined)).toBeUndefined();
  });
});
