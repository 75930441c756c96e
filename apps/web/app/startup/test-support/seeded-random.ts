// Random sources for tests: a seeded stream for distributions, a scripted one for exact cases.
import { mulberry32 } from '../shopper-generator';
import type { RandomSource } from '../sample-identity';

export const TEST_SEED = 12_345;

/** Reproducible [0, 1) stream (mulberry32). */
export function seededRandom(seed: number = TEST_SEED): RandomSource {
  return mulberry32(seed);
}

/**
 * Returns the given values in order and fails the test if asked for more, so a test also
 * pins how many draws a rule makes.
 */
export function scriptedRandom(...values: number[]): RandomSource & { remaining(): number } {
  let next = 0;
  const random = () => {
    const value = values[next];
    if (value === undefined) throw new Error(`scriptedRandom: draw ${next + 1} was not scripted`);
    next += 1;
    return value;
  };
  return Object.assign(random, { remaining: () => values.length - next });
}
