import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentList, ExperimentReport } from '@showroom/contracts/experiments';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from '../flags/definitions.js';
import { createFlagsRepository } from '../flags/repository.js';
import {
  compareMeans,
  compareProportions,
  sampleRatioCheck,
  wilsonInterval,
} from './statistics.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const T0 = Date.UTC(2026, 0, 15, 9);
const MINUTE = 60_000;
const FLAG = 'checkout_country_selector_first';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await createFlagsRepository(testDb.database.db, () => NOW).syncDefinitions(
    await readFlagDefinitions(DEFAULT_FLAGS_PATH),
  );
  app = await buildApp({ database: testDb.database, flags: { now: () => NOW } });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

/** An exposure as the Datadog browser provider sends it to the intake (see intake.test.ts). */
function exposure(flag: string, allocation: string, variant: string, subject: string, at: number) {
  return {
    allocation: { key: allocation },
    flag: { key: flag },
    variant: { key: variant },
    subject: { id: subject, attributes: {} },
    service: 'showroom-web',
    timestamp: at,
  };
}

async function postExposures(events: ReturnType<typeof exposure>[]) {
  const res = await app.inject({
    method: 'POST',
    url: `/intake?ddforward=${encodeURIComponent('/api/v2/exposures?ddsource=browser')}`,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    payload: events.map((event) => JSON.stringify(event)).join('\n'),
  });
  expect(res.statusCode).toBe(202);
}

const track = (events: unknown[]) =>
  app.inject({ method: 'POST', url: '/flags/track', payload: { events } });

const purchase = (targetingKey: string, at: number, value: number) => ({
  targetingKey,
  name: 'purchase',
  timestamp: at,
  value,
  currency: 'EUR',
});

async function trackingRows() {
  return testDb.database.db.selectFrom('tracking_events').selectAll().orderBy('id').execute();
}

describe('POST /flags/track', () => {
  it('stores a batch and answers 202 with the count', async () => {
    const res = await track([
      { targetingKey: 'shopper-x', name: 'add_to_cart', timestamp: T0 - 5 * MINUTE },
      {
        ...purchase('shopper-x', T0 - 4 * MINUTE, 12_345),
        details: { orderId: 'ord_1', lines: 2, express: true },
      },
    ]);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ stored: 2 });
    const rows = await trackingRows();
    expect(
      rows.map((row) => ({
        ...row,
        id: undefined,
        value_cents: row.value_cents === null ? null : Number(row.value_cents),
        timestamp: Number(row.timestamp),
        received_at: Number(row.received_at),
      })),
    ).toEqual([
      {
        id: undefined,
        targeting_key: 'shopper-x',
        name: 'add_to_cart',
        value_cents: null,
        currency: null,
        details: null,
        timestamp: T0 - 5 * MINUTE,
        received_at: NOW,
      },
      {
        id: undefined,
        targeting_key: 'shopper-x',
        name: 'purchase',
        value_cents: 12_345,
        currency: 'EUR',
        details: JSON.stringify({ orderId: 'ord_1', lines: 2, express: true }),
        timestamp: T0 - 4 * MINUTE,
        received_at: NOW,
      },
    ]);
  });

  it('refuses a batch with a bad event (400 naming the field) and stores none of it', async () => {
    const before = (await trackingRows()).length;
    const cases: [Record<string, unknown>, string][] = [
      [
        { events: [purchase('a', T0, 100), { ...purchase('b', T0, 100), value: 12.5 }] },
        'events.1.value',
      ],
      [{ events: [{ ...purchase('a', T0, 100), currency: 'eur' }] }, 'events.0.currency'],
      [{ events: [{ ...purchase('a', T0, 100), name: 'Bought It' }] }, 'events.0.name'],
      [{ events: [{ name: 'purchase', timestamp: T0 }] }, 'events.0.targetingKey'],
      [{ events: [] }, 'events'],
      [{ events: Array.from({ length: 101 }, () => purchase('a', T0, 1)) }, 'events'],
    ];
    for (const [payload, field] of cases) {
      const res = await app.inject({ method: 'POST', url: '/flags/track', payload });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    expect(await trackingRows()).toHaveLength(before);
  });
});

describe('experiment results', () => {
  // checkout_country_selector_first (apps/api/flags/checkout.json): `experiment` splits 50/50
  // between on and off; `logistics-team` serves on to a team. Control: off.
  beforeAll(async () => {
    const at = (minutes: number) => T0 + minutes * MINUTE;
    const events = [
      // off: c1…c10 at minutes 1…10, and `switch` at 0, who sees `on` an hour later (a context
      // change): it stays in off, the variant of its first exposure.
      ...Array.from({ length: 10 }, (_, i) =>
        exposure(FLAG, 'experiment', 'off', `c${i + 1}`, at(i + 1)),
      ),
      exposure(FLAG, 'experiment', 'off', 'switch', at(0)),
      exposure(FLAG, 'experiment', 'on', 'switch', at(60)),
      // c1 exposed again: still one subject.
      exposure(FLAG, 'experiment', 'off', 'c1', at(30)),
      // on: t1…t8 under the split, l1 and l2 through the team rule.
      ...Array.from({ length: 8 }, (_, i) =>
        exposure(FLAG, 'experiment', 'on', `t${i + 1}`, at(i + 1)),
      ),
      exposure(FLAG, 'logistics-team', 'on', 'l1', at(20)),
      exposure(FLAG, 'logistics-team', 'on', 'l2', at(20)),
      // instant_pay, the shop's own experiment: a 3, b 3, c 2.
      ...['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c'].map((variant, i) =>
        exposure('instant_pay', 'client-random', variant, `ip${i}`, at(i)),
      ),
    ];
    await postExposures(events);
    const res = await track([
      // off: c1 buys twice (one conversion, 150.00), switch once before its second exposure.
      purchase('c1', at(40), 10_000),
      purchase('c1', at(50), 5_000),
      purchase('switch', at(30), 2_000),
      // Not conversions: c2 bought before its exposure, c3 only added to the cart.
      purchase('c2', at(0), 99_999),
      { targetingKey: 'c3', name: 'add_to_cart', timestamp: at(45) },
      // on: t1, t2, t3 and l1.
      purchase('t1', at(70), 20_000),
      purchase('t2', at(71), 20_000),
      purchase('t3', at(72), 20_000),
      purchase('l1', at(80), 3_000),
      // Never exposed: ignored.
      purchase('stranger', at(80), 50_000),
      // instant_pay: one b buyer.
      purchase('ip4', at(90), 7_500),
    ]);
    expect(res.statusCode).toBe(202);
  });

  const report = async (flag: string, query = '') => {
    const res = await app.inject({ method: 'GET', url: `/experiments/${flag}${query}` });
    expect(res.statusCode).toBe(200);
    return res.json<ExperimentReport>();
  };

  it('lists flags serving more than one variant, and instant_pay, with exposed subjects', async () => {
    const res = await app.inject({ method: 'GET', url: '/experiments' });
    expect(res.statusCode).toBe(200);
    const { experiments } = res.json<ExperimentList>();
    const byKey = new Map(experiments.map((entry) => [entry.flagKey, entry]));
    expect(byKey.get(FLAG)).toEqual({
      flagKey: FLAG,
      source: 'flag-service',
      variants: ['on', 'off'],
      control: 'off',
      exposedSubjects: 21,
    });
    expect(byKey.get('instant_pay')).toEqual({
      flagKey: 'instant_pay',
      source: 'client',
      variants: ['a', 'b', 'c'],
      control: 'a',
      exposedSubjects: 8,
    });
    // show_payments serves on and off through two allocations: listed, nobody exposed yet.
    expect(byKey.get('show_payments')?.exposedSubjects).toBe(0);
  });

  it('counts subjects in their first variant and purchases after their first exposure', async () => {
    const result = await report(FLAG);
    expect(result.control).toBe('off');
    expect(result.currencies).toEqual(['EUR']);
    expect(
      result.variants.map(({ variant, isControl, exposed, conversions, revenueCents }) => ({
        variant,
        isControl,
        exposed,
        conversions,
        revenueCents,
      })),
    ).toEqual([
      { variant: 'off', isControl: true, exposed: 11, conversions: 2, revenueCents: 17_000 },
      { variant: 'on', isControl: false, exposed: 10, conversions: 4, revenueCents: 63_000 },
    ]);
    const [off, on] = result.variants;
    expect(off?.conversionRate).toEqual(wilsonInterval(2, 11));
    expect(off?.conversionLift).toBeNull();
    expect(on?.conversionLift).toEqual(
      compareProportions({ successes: 4, n: 10 }, { successes: 2, n: 11 }),
    );
    // Per-subject revenue: off 15,000 + 2,000 and nine zeros; on three 20,000, 3,000, six zeros.
    expect(off?.revenuePerSubjectCents.estimate).toBeCloseTo(17_000 / 11, 9);
    expect(on?.revenueLift).toEqual(
      compareMeans(
        { n: 10, sum: 63_000, sumOfSquares: 3 * 20_000 ** 2 + 3_000 ** 2 },
        { n: 11, sum: 17_000, sumOfSquares: 15_000 ** 2 + 2_000 ** 2 },
      ),
    );
  });

  it('checks the split allocation for a sample-ratio mismatch', async () => {
    const result = await report(FLAG);
    // Only `experiment`'s subjects: off 11 (c1…c10, switch), on 8 (l1, l2 came by the rule).
    expect(result.sampleRatio).toEqual(
      sampleRatioCheck('experiment', { on: 0.5, off: 0.5 }, { on: 8, off: 11 }),
    );
    expect(result.sampleRatio?.chiSquare).toBeCloseTo(4.5 / 9.5, 9);
    expect(result.sampleRatio?.mismatch).toBe(false);
    expect((await report('instant_pay')).sampleRatio).toMatchObject({
      allocationKey: 'client-random',
      expected: { a: 0.33, b: 0.33, c: 0.34 },
      observed: { a: 3, b: 3, c: 2 },
    });
  });

  it('draws a cumulative conversion series ending at the totals', async () => {
    const result = await report(FLAG);
    expect(result.series.map((series) => series.variant)).toEqual(['off', 'on']);
    for (const series of result.series) {
      expect(series.points.length).toBeGreaterThan(1);
      expect(series.points.length).toBeLessThanOrEqual(100);
      const totals = result.variants.find((variant) => variant.variant === series.variant)!;
      expect(series.points.at(-1)).toMatchObject({
        exposed: totals.exposed,
        conversions: totals.conversions,
        rate: totals.conversions / totals.exposed,
      });
      const times = series.points.map((point) => point.at);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const exposed = series.points.map((point) => point.exposed);
      expect(exposed).toEqual([...exposed].sort((a, b) => a - b));
    }
    // The first bucket (minutes 0–1 of 91): switch for off, nobody for on yet.
    expect(result.series[0]?.points[0]).toMatchObject({ exposed: 1, conversions: 0, rate: 0 });
    expect(result.series[1]?.points[0]).toMatchObject({ exposed: 0, rate: null });
  });

  it('counts only exposures from `since` on', async () => {
    const result = await report(FLAG, `?since=${T0 + 6 * MINUTE}`);
    expect(result.since).toBe(T0 + 6 * MINUTE);
    // off: c6…c10, and c1 through its repeat exposure at minute 30 (its purchases follow it).
    // on: t6…t8, l1, l2, and switch, whose first exposure in the window is on (its purchase
    // came before it). Conversions: c1 and l1.
    expect(
      result.variants.map(({ variant, exposed, conversions }) => ({
        variant,
        exposed,
        conversions,
      })),
    ).toEqual([
      { variant: 'off', exposed: 6, conversions: 1 },
      { variant: 'on', exposed: 6, conversions: 1 },
    ]);
  });

  it('answers 404 naming an unknown flag, 400 for a malformed key', async () => {
    const res = await app.inject({ method: 'GET', url: '/experiments/no_such_flag' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toContain('no_such_flag');
    const bad = await app.inject({ method: 'GET', url: '/experiments/bad%20key' });
    expect(bad.statusCode).toBe(400);
  });

  it('keeps results for operators and tracking open when an operator token is set', async () => {
    const guarded = await buildApp({ database: testDb.database, operatorToken: 'secret' });
    try {
      const list = await guarded.inject({ method: 'GET', url: '/experiments' });
      expect(list.statusCode).toBe(401);
      const allowed = await guarded.inject({
        method: 'GET',
        url: `/experiments/${FLAG}`,
        headers: { authorization: 'Bearer secret' },
      });
      expect(allowed.statusCode).toBe(200);
      const tracked = await guarded.inject({
        method: 'POST',
        url: '/flags/track',
        payload: { events: [{ targetingKey: 'z', name: 'add_to_cart', timestamp: T0 }] },
      });
      expect(tracked.statusCode).toBe(202);
    } finally {
      await guarded.close();
    }
  });
});
