import { describe, expect, it } from 'vitest';
import { decideGuard, percentile75, variantMetric } from './guard-decision.js';

const definition = { minSessions: 10, margin: 0.05, steps: [5, 25, 50, 100], holdMs: 60_000 };
const watching = { status: 'watching' as const, stepIndex: 0, stepStartedAt: 1_000 };
const metric = (value: number | null, sessions: number) => ({ value, sessions });

describe('variantMetric', () => {
  it('computes each kind from the samples, null when nothing was seen', () => {
    const samples = { sessions: 4, actions: 6, failures: 2, lcpMs: [100, 400, 200, 300] };
    expect(variantMetric('action-error-rate', samples)).toEqual({ value: 0.25, sessions: 4 });
    expect(variantMetric('payment-decline-rate', samples)).toEqual({ value: 0.25, sessions: 4 });
    expect(variantMetric('js-errors-per-session', samples)).toEqual({ value: 0.5, sessions: 4 });
    expect(variantMetric('p75-lcp', samples)).toEqual({ value: 300, sessions: 4 });
    const empty = { sessions: 0, actions: 0, failures: 0, lcpMs: [] };
    for (const kind of ['action-error-rate', 'js-errors-per-session', 'p75-lcp'] as const) {
      expect(variantMetric(kind, empty).value).toBeNull();
    }
  });

  it('takes the 75th percentile by nearest rank', () => {
    expect(percentile75([5])).toBe(5);
    expect(percentile75([1, 2, 3, 4, 5, 6, 7, 8])).toBe(6);
    expect(percentile75([])).toBeNull();
  });
});

describe('decideGuard', () => {
  it('trips when treatment is worse than control by more than the margin, with enough sessions', () => {
    expect(decideGuard(definition, watching, metric(0.1, 10), metric(0.16, 10), 2_000)).toEqual({
      kind: 'trip',
    });
    // Exactly the margin is not worse by more than it.
    expect(decideGuard(definition, watching, metric(0.1, 10), metric(0.15, 10), 2_000).kind).toBe(
      'none',
    );
    // Better treatment never trips.
    expect(decideGuard(definition, watching, metric(0.5, 10), metric(0, 10), 2_000).kind).toBe(
      'none',
    );
  });

  it('never trips below minSessions in either variant, nor without a value', () => {
    expect(decideGuard(definition, watching, metric(0, 9), metric(1, 100), 2_000).kind).toBe(
      'none',
    );
    expect(decideGuard(definition, watching, metric(0, 100), metric(1, 9), 2_000).kind).toBe(
      'none',
    );
    expect(decideGuard(definition, watching, metric(null, 50), metric(1, 50), 2_000).kind).toBe(
      'none',
    );
  });

  it('advances once the step has held for holdMs with a comparison that counted, then completes', () => {
    const healthy = [metric(0.1, 10), metric(0.1, 10)] as const;
    expect(decideGuard(definition, watching, ...healthy, 60_999).kind).toBe('none');
    expect(decideGuard(definition, watching, ...healthy, 61_000)).toEqual({
      kind: 'advance',
      step: 1,
      percentage: 25,
      completes: false,
    });
    // The last step takes everyone: nobody is left on control, so it completes the rollout.
    expect(decideGuard(definition, { ...watching, stepIndex: 2 }, ...healthy, 61_000)).toEqual({
      kind: 'advance',
      step: 3,
      percentage: 100,
      completes: true,
    });
    expect(
      decideGuard(
        { ...definition, steps: [5, 25, 50] },
        { ...watching, stepIndex: 1 },
        ...healthy,
        61_000,
      ),
    ).toEqual({ kind: 'advance', step: 2, percentage: 50, completes: false });
    expect(decideGuard(definition, watching, metric(0.1, 9), metric(0.1, 10), 61_000).kind).toBe(
      'none',
    );
    const last = { ...watching, stepIndex: 3 };
    expect(decideGuard(definition, last, ...healthy, 61_000)).toEqual({ kind: 'complete' });
    expect(decideGuard({ ...definition, steps: undefined }, watching, ...healthy, 61_000)).toEqual({
      kind: 'none',
    });
  });

  it('does nothing once the guard is no longer watching', () => {
    for (const status of ['tripped', 'rolled-back', 'held', 'completed'] as const) {
      expect(
        decideGuard(definition, { ...watching, status }, metric(0, 50), metric(1, 50), 99_000),
      ).toEqual({ kind: 'none' });
    }
  });
});
