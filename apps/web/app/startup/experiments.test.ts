import { describe, expect, it } from 'vitest';
import {
  assignInstantPay,
  readInstantPayVariant,
  recordFeatureFlagEvaluations,
  rememberInstantPayVariant,
  routeExperiments,
  type FeatureFlagSink,
} from './experiments';
import { INSTANT_PAY_VARIANT_KEY } from './storage-keys';
import { createMemoryStorage } from './test-support/memory-storage';
import { scriptedRandom, seededRandom } from './test-support/seeded-random';

function recordingSink(): FeatureFlagSink & { calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  return { calls, addFeatureFlagEvaluation: (key, value) => void calls.push([key, value]) };
}

describe('assignInstantPay', () => {
  it('R-4.7 under 0.33 gives b, over 0.66 gives c, 0.33 to 0.66 inclusive gives a', () => {
    const variants = [0, 0.3299, 0.33, 0.5, 0.66, 0.6601, 0.9999].map((v) =>
      assignInstantPay(scriptedRandom(v)),
    );
    expect(variants).toEqual(['b', 'b', 'a', 'a', 'a', 'c', 'c']);
  });

  it('R-4.7 over 100,000 draws a, b and c come 33 %, 33 % and 34 % of the time (±1 pp)', () => {
    const random = seededRandom(2026);
    const counts = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 100_000; i += 1) counts[assignInstantPay(random)] += 1;
    expect(Math.abs(counts.a / 100_000 - 0.33)).toBeLessThan(0.01);
    expect(Math.abs(counts.b / 100_000 - 0.33)).toBeLessThan(0.01);
    expect(Math.abs(counts.c / 100_000 - 0.34)).toBeLessThan(0.01);
  });
});

describe('routeExperiments', () => {
  it.each(['/cart', '/cart/'])('R-4.7 %s evaluates instant_pay with one draw', (path) => {
    const random = scriptedRandom(0.9);
    expect(routeExperiments(path, random)).toEqual([{ key: 'instant_pay', value: 'c' }]);
    expect(random.remaining()).toBe(0);
  });

  it.each([
    '/department/tables/product/10',
    '/department/chairs/product/special-edition-3',
    '/department/chairs/anything',
  ])('R-4.8 %s records personal_recommendations = 1', (path) => {
    expect(routeExperiments(path, scriptedRandom())).toEqual([
      { key: 'personal_recommendations', value: 1 },
    ]);
  });

  it.each([
    '/department/chairs',
    '/department/chairs/',
    '/department',
    '/departments/a/b',
    '/',
    '/checkout',
  ])('R-4.7 R-4.8 %s evaluates nothing and draws nothing', (path) => {
    expect(routeExperiments(path, scriptedRandom())).toEqual([]);
  });
});

describe('recordFeatureFlagEvaluations', () => {
  it('R-7.6 passes every evaluation to the sink, in order', () => {
    const sink = recordingSink();
    recordFeatureFlagEvaluations(
      [
        { key: 'instant_pay', value: 'b' },
        { key: 'personal_recommendations', value: 1 },
      ],
      sink,
    );
    expect(sink.calls).toEqual([
      ['instant_pay', 'b'],
      ['personal_recommendations', 1],
    ]);
  });
});

describe('instant_pay variant for the checkout UI', () => {
  it('R-4.7 the variant of the last /cart load is kept in session storage and read back', () => {
    const session = createMemoryStorage();
    expect(readInstantPayVariant(session)).toBeNull();
    rememberInstantPayVariant(routeExperiments('/cart', scriptedRandom(0.1)), session);
    expect(session.snapshot()).toEqual({ [INSTANT_PAY_VARIANT_KEY]: 'b' });
    expect(readInstantPayVariant(session)).toBe('b');
    rememberInstantPayVariant(routeExperiments('/department/a/b', scriptedRandom()), session);
    expect(readInstantPayVariant(session)).toBe('b');
  });

  it('R-4.7 an unknown stored variant reads as none', () => {
    expect(
      readInstantPayVariant(createMemoryStorage({ [INSTANT_PAY_VARIANT_KEY]: 'd' })),
    ).toBeNull();
  });
});
