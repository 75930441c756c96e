/** Min, median and max of repeated measurements: every figure in the report is one of these. */
export function summarize(samples) {
  const sorted = samples.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return { n: 0, min: NaN, median: NaN, max: NaN };
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { n: sorted.length, min: sorted[0], median, max: sorted[sorted.length - 1] };
}

/** Pairwise ratios a[i] / b[i] of measurements taken side by side in the same run. */
export function ratios(numerators, denominators) {
  return numerators.map((value, i) => value / denominators[i]);
}

/** The nearest-rank percentile `p` (0–100) of `samples`. */
export function percentile(samples, p) {
  const sorted = samples.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
