/**
 * mulberry32: a small, fast 32-bit seeded pseudo-random generator giving the same [0, 1)
 * sequence in every JavaScript engine — the sample shoppers (apps/web), the photos
 * (tools/images) and the traffic generator's plans (tools/traffic) draw from it.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
