import { describe, expect, it } from 'vitest';
import { readTrafficProfile } from '@showroom/contracts/traffic';
import experimentProfile from '../profiles/experiment.json' with { type: 'json' };
import {
  baseConversionRate,
  convertsWithEffect,
  drawInstantPay,
  plannedToBuy,
} from './experiment.js';
import { planSession } from './planner.js';

const { profile, warnings } = readTrafficProfile(experimentProfile, 'experiment');

/** Conversion per variant over many planned sessions, as the HTTP sessions decide it. */
function conversionByVariant(sessions: number) {
  const tally = new Map<string, { sessions: number; orders: number }>();
  for (let index = 0; index < sessions; index += 1) {
    const plan = planSession(profile, index);
    if (plan.leavesAt === 'product') continue; // never reaches the cart, never exposed
    const variant = drawInstantPay(plan.experimentDraws!.variant);
    const buys = convertsWithEffect({
      plannedToBuy: plannedToBuy(plan),
      base: baseConversionRate(profile),
      shownVariant: variant,
      experiment: profile.experiment!,
      effectDraw: plan.experimentDraws!.effect,
    });
    const row = tally.get(variant) ?? { sessions: 0, orders: 0 };
    row.sessions += 1;
    if (buys) row.orders += 1;
    tally.set(variant, row);
  }
  const rate = (variant: string) => tally.get(variant)!.orders / tally.get(variant)!.sessions;
  return { tally, rate };
}

describe('the experiment profile', () => {
  it('reads without warnings and designs instant_pay b at 1.3 times the conversion', () => {
    expect(warnings).toEqual([]);
    expect(profile.experiment).toEqual({
      flag: 'instant_pay',
      variant: 'b',
      conversionMultiplier: 1.3,
    });
    expect(baseConversionRate(profile)).toBeCloseTo(0.7 * 0.8 * 0.9, 10);
  });

  it('over 30,000 seeded sessions, b converts 1.3 times as often as a and c, and the split is R-4.7’s', () => {
    const { tally, rate } = conversionByVariant(30_000);
    const base = baseConversionRate(profile);
    expect(rate('a')).toBeCloseTo(base, 1);
    expect(rate('c')).toBeCloseTo(base, 1);
    expect(rate('b') / rate('a')).toBeGreaterThan(1.22);
    expect(rate('b') / rate('a')).toBeLessThan(1.38);
    const total = [...tally.values()].reduce((sum, row) => sum + row.sessions, 0);
    expect(tally.get('b')!.sessions / total).toBeCloseTo(0.33, 1);
    expect(tally.get('c')!.sessions / total).toBeCloseTo(0.34, 1);
  });

  it('a multiplier below 1 keeps only that share of the buyers shown the variant', () => {
    const experiment = { flag: 'instant_pay', variant: 'b', conversionMultiplier: 0.5 };
    const outcome = (plannedToBuy: boolean, effectDraw: number, shownVariant = 'b') =>
      convertsWithEffect({ plannedToBuy, base: 0.5, shownVariant, experiment, effectDraw });
    expect([outcome(true, 0.49), outcome(true, 0.51), outcome(false, 0.1)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([outcome(true, 0.9, 'a'), outcome(false, 0.1, 'a')]).toEqual([true, false]);
  });

  it('profiles without an experiment plan exactly as before (no extra draws)', () => {
    const plain = readTrafficProfile({ ...experimentProfile, experiment: undefined }).profile;
    const withIt = planSession(profile, 7);
    const without = planSession(plain, 7);
    expect(without.experimentDraws).toBeNull();
    expect({ ...withIt, experimentDraws: null }).toEqual(without);
  });
});
