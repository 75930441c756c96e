import { describe, expect, it } from 'vitest';
import {
  AUTOPILOT_PROFILES,
  planAutopilot,
  scenariosOnAfter,
  type AutopilotProfile,
} from '@showroom/contracts/autopilot';

// The schedule is data planned from a profile and a seed (docs/decisions/018-autopilot.md).
const IDS = [
  'slow-product-api',
  'payment-failures',
  'slow-product-images',
  'broken-product-images',
  'recommendations-failure',
  'slow-cart-query',
  'buy-now-error',
];

describe('planAutopilot', () => {
  it('plans the same schedule twice for one seed, and another for another seed', () => {
    for (const profile of Object.values(AUTOPILOT_PROFILES)) {
      const first = planAutopilot(profile, 42, IDS);
      expect(first.length).toBeGreaterThan(0);
      expect(planAutopilot(profile, 42, IDS)).toEqual(first);
      // The catalogue's order does not change the plan.
      expect(planAutopilot(profile, 42, [...IDS].reverse())).toEqual(first);
      expect(planAutopilot(profile, 43, IDS)).not.toEqual(first);
    }
  });

  it('alternates faults on and off, with durations and counts inside the profile', () => {
    const profile: AutopilotProfile = {
      quietMinutes: { min: 2, max: 4 },
      faultMinutes: { min: 1, max: 3 },
      faultsAtOnce: { min: 1, max: 2 },
      scenarios: ['slow-product-api', 'payment-failures', 'slow-cart-query', 'not-in-catalogue'],
      steps: 5,
      minuteMs: 1_000,
    };
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed += 1) {
      const steps = planAutopilot(profile, seed, IDS);
      expect(steps).toHaveLength(10);
      let previous = 0;
      steps.forEach((step, index) => {
        expect(step.index).toBe(index);
        const gap = step.offsetMs - previous;
        const [min, max] =
          index % 2 === 0 ? [2_000, 4_000] : [1_000, 3_000]; /* quiet before on, fault before off */
        expect(gap).toBeGreaterThanOrEqual(min);
        expect(gap).toBeLessThanOrEqual(max);
        previous = step.offsetMs;
        if (index % 2 === 0) {
          expect(step.turnOff).toEqual([]);
          expect(step.turnOn.length).toBeGreaterThanOrEqual(1);
          expect(step.turnOn.length).toBeLessThanOrEqual(2);
          expect(new Set(step.turnOn).size).toBe(step.turnOn.length);
        } else {
          expect(step.turnOn).toEqual([]);
          expect(step.turnOff).toEqual(steps[index - 1]!.turnOn);
        }
        for (const id of [...step.turnOn, ...step.turnOff]) {
          expect(['slow-product-api', 'payment-failures', 'slow-cart-query']).toContain(id);
          seen.add(id);
        }
      });
      // Quiet at the end: nothing is left on.
      expect(scenariosOnAfter(steps, steps.length)).toEqual([]);
    }
    // Over many seeds every allowed scenario is drawn.
    expect([...seen].sort()).toEqual(['payment-failures', 'slow-cart-query', 'slow-product-api']);
  });

  it('plans nothing when the catalogue holds none of the profile scenarios', () => {
    expect(planAutopilot(AUTOPILOT_PROFILES.gentle, 1, ['buy-now-error'])).toEqual([]);
  });

  it('knows what is on after each step', () => {
    const steps = planAutopilot(AUTOPILOT_PROFILES.compressed, 7, IDS);
    expect(scenariosOnAfter(steps, 0)).toEqual([]);
    expect(scenariosOnAfter(steps, 1).sort()).toEqual([...steps[0]!.turnOn].sort());
    expect(scenariosOnAfter(steps, 2)).toEqual([]);
  });
});
