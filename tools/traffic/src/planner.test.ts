import { describe, expect, it } from 'vitest';
import { readTrafficProfile } from '@showroom/contracts/traffic';
import { describePlan, planSession } from './planner.js';
import { loadProfile, PROFILES_DIR } from './profile-file.js';

const steady = loadProfile(`${PROFILES_DIR}/steady.json`).profile;
const sequence = (profile: typeof steady, count: number, known?: Set<string>) =>
  Array.from({ length: count }, (_, index) => describePlan(planSession(profile, index, known)));

describe('the session planner', () => {
  it('plans the same sequence for the same seed, and another for another seed', () => {
    const first = sequence(steady, 50);
    expect(sequence(steady, 50)).toEqual(first);
    expect(new Set(first.map((line) => line.split(' ')[1])).size).toBeGreaterThan(4);
    expect(sequence({ ...steady, seed: steady.seed + 1 }, 50)).not.toEqual(first);
  });

  it("plans session n the same whatever was planned before (order and concurrency don't matter)", () => {
    const later = planSession(steady, 17);
    sequence(steady, 5);
    expect(planSession(steady, 17)).toEqual(later);
  });

  it('draws journeys by weight, never one of weight 0', () => {
    const { profile } = readTrafficProfile({
      seed: 3,
      journeys: { browse: 3, search: 1, checkout: 0 },
    });
    const counts: Record<string, number> = {};
    for (let index = 0; index < 2000; index++) {
      const { journey } = planSession(profile, index);
      counts[journey] = (counts[journey] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['browse', 'search']);
    expect(counts.browse! / 2000).toBeGreaterThan(0.7);
    expect(counts.browse! / 2000).toBeLessThan(0.8);
  });

  it('gives scenario journeys a scenario the shop serves, else browses', () => {
    const { profile } = readTrafficProfile({
      journeys: { scenario: 1 },
      scenarios: [{ id: 'buy-now-error', weight: 1 }],
    });
    expect(planSession(profile, 0, new Set(['buy-now-error']))).toMatchObject({
      journey: 'scenario',
      scenarioId: 'buy-now-error',
    });
    expect(planSession(profile, 0, new Set())).toMatchObject({
      journey: 'browse',
      scenarioId: null,
    });
  });

  it('draws returning visitors, switches, drop-off and think times from the profile', () => {
    const { profile } = readTrafficProfile({
      journeys: { checkout: 1 },
      returningShare: 1,
      switches: [{ query: { loyalty: 'true' }, share: 1 }],
      dropOff: { cart: 1 },
      thinkTime: { minMs: 100, maxMs: 200 },
    });
    const plan = planSession(profile, 4);
    expect(plan.returning).toBe(true);
    expect(plan.switches).toEqual({ loyalty: 'true' });
    expect(plan.leavesAt).toBe('cart');
    expect(plan.thinkTimesMs.every((ms) => ms >= 100 && ms <= 200)).toBe(true);
    const none = planSession({ ...profile, returningShare: 0, switches: [], dropOff: {} }, 4);
    expect([none.returning, none.switches, none.leavesAt]).toEqual([false, {}, null]);
    // Browsing passes no funnel step: nobody leaves one.
    expect(planSession({ ...profile, journeys: { browse: 1 } }, 4).leavesAt).toBeNull();
  });
});
