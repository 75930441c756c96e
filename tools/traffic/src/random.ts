import { mulberry32 } from '@showroom/contracts/random';

/** A small seeded pseudo-random generator (mulberry32): the same seed gives the same draws. */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  return mulberry32(seed);
}

/** Mixes a run's seed with a session's index into the seed of that session's own draws. */
export function sessionSeed(seed: number, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ index, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** One entry drawn by weight (entries of weight 0 are never drawn); undefined when none can be. */
export function pickWeighted<T>(
  random: Random,
  entries: readonly T[],
  weightOf: (entry: T) => number,
): T | undefined {
  const total = entries.reduce((sum, entry) => sum + Math.max(0, weightOf(entry)), 0);
  if (total <= 0) return undefined;
  let point = random() * total;
  for (const entry of entries) {
    const weight = Math.max(0, weightOf(entry));
    if (weight === 0) continue;
    if (point < weight) return entry;
    point -= weight;
  }
  return entries.findLast((entry) => weightOf(entry) > 0);
}

/** A whole number in [min, max]. */
export function between(random: Random, min: number, max: number): number {
  return Math.round(min + random() * (max - min));
}
