import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import type { Comparison, Estimate, SampleRatioCheck } from '@showroom/contracts/experiments';
import { EXPERIMENT_CONFIDENCE, SRM_P_THRESHOLD } from '@showroom/contracts/experiments';

/**
 * The statistics of experiment results, as pure functions (docs/decisions/017-experiment-statistics.md).
 * Distributions come from @stdlib's per-function packages; everything else is the textbook
 * formula named on each function. Large-sample (normal) methods throughout: the shop's
 * experiments have hundreds to tens of thousands of subjects per variant.
 */

/** Two-sided critical value of the standard normal for `confidence` (1.959964 for 95 %). */
export function zCritical(confidence: number = EXPERIMENT_CONFIDENCE): number {
  return normalQuantile(1 - (1 - confidence) / 2, 0, 1);
}

/** Two-sided p-value of a standard-normal statistic (2·Φ(−|z|), exact in the far tail). */
export function twoSidedP(z: number): number {
  return Math.min(1, 2 * normalCdf(-Math.abs(z), 0, 1));
}

const NO_ESTIMATE: Estimate = { estimate: null, low: null, high: null };

/**
 * A proportion with its Wilson score interval (Wilson 1927): unlike the Wald interval it stays
 * inside [0, 1] and keeps its coverage for small counts and rates near 0 or 1.
 */
export function wilsonInterval(
  successes: number,
  n: number,
  confidence: number = EXPERIMENT_CONFIDENCE,
): Estimate {
  if (n <= 0) return NO_ESTIMATE;
  const z = zCritical(confidence);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 or n successes a bound is exactly 0 or 1; the formula leaves a rounding hair there.
  return {
    estimate: p,
    low: successes <= 0 ? 0 : Math.max(0, centre - half),
    high: successes >= n ? 1 : Math.min(1, centre + half),
  };
}

/** A sample's size, sum and sum of squares: enough for its mean and variance. */
export interface Moments {
  n: number;
  sum: number;
  sumOfSquares: number;
}

/** Sample variance (n − 1 in the denominator); null below two values. */
export function sampleVariance({ n, sum, sumOfSquares }: Moments): number | null {
  if (n < 2) return null;
  // Clamped: rounding can take a zero variance a hair below zero.
  return Math.max(0, (sumOfSquares - (sum * sum) / n) / (n - 1));
}

/** The mean with a normal (central-limit) interval from the sample variance. */
export function meanInterval(
  moments: Moments,
  confidence: number = EXPERIMENT_CONFIDENCE,
): Estimate {
  if (moments.n <= 0) return NO_ESTIMATE;
  const mean = moments.sum / moments.n;
  const variance = sampleVariance(moments);
  if (variance === null) return { estimate: mean, low: null, high: null };
  const half = zCritical(confidence) * Math.sqrt(variance / moments.n);
  return { estimate: mean, low: mean - half, high: mean + half };
}

/**
 * Relative lift (treatment − control) ÷ control with a delta-method interval: the variance of
 * the ratio of two independent means is approximated by ratio² · (varT/meanT² + varC/meanC²).
 */
function relativeLift(
  treatmentMean: number,
  treatmentVarianceOfMean: number,
  controlMean: number,
  controlVarianceOfMean: number,
  z: number,
): Estimate {
  if (controlMean === 0) return NO_ESTIMATE;
  const ratio = treatmentMean / controlMean;
  const relative = ratio - 1;
  if (treatmentMean === 0) return { estimate: relative, low: null, high: null };
  const se =
    Math.abs(ratio) *
    Math.sqrt(
      treatmentVarianceOfMean / (treatmentMean * treatmentMean) +
        controlVarianceOfMean / (controlMean * controlMean),
    );
  return { estimate: relative, low: relative - z * se, high: relative + z * se };
}

/**
 * A difference with its normal interval (standard error `se`) and the two-sided p-value of its
 * z-test under the null hypothesis's standard error `testSe` (null when that is 0).
 */
function comparison(
  difference: number,
  se: number,
  relative: Estimate,
  testSe: number,
  z: number,
): Comparison {
  return {
    absolute: { estimate: difference, low: difference - z * se, high: difference + z * se },
    relative,
    pValue: testSe > 0 ? twoSidedP(difference / testSe) : null,
  };
}

/** Conversions out of exposed subjects. */
export interface Proportion {
  successes: number;
  n: number;
}

/**
 * A variant's conversion rate against the control's: the absolute difference with an unpooled
 * (Wald) normal interval, the relative lift with a delta-method interval, and the two-sided
 * p-value of the pooled two-proportion z-test (the pooled variance is the one under the null
 * hypothesis of no difference). Null p-value when neither group varies (all or none converted).
 */
export function compareProportions(
  treatment: Proportion,
  control: Proportion,
  confidence: number = EXPERIMENT_CONFIDENCE,
): Comparison | null {
  if (treatment.n <= 0 || control.n <= 0) return null;
  const z = zCritical(confidence);
  const pT = treatment.successes / treatment.n;
  const pC = control.successes / control.n;
  const difference = pT - pC;
  const varT = (pT * (1 - pT)) / treatment.n;
  const varC = (pC * (1 - pC)) / control.n;
  const se = Math.sqrt(varT + varC);
  const pooled = (treatment.successes + control.successes) / (treatment.n + control.n);
  const pooledSe = Math.sqrt(pooled * (1 - pooled) * (1 / treatment.n + 1 / control.n));
  return comparison(difference, se, relativeLift(pT, varT, pC, varC, z), pooledSe, z);
}

/**
 * A variant's mean (revenue per subject) against the control's: Welch's unequal-variance
 * standard error with the normal critical value (the samples are large; Welch's t with its
 * Satterthwaite degrees of freedom would differ in the fourth digit), its two-sided p-value and
 * the delta-method relative lift. Null below two subjects in either group.
 */
export function compareMeans(
  treatment: Moments,
  control: Moments,
  confidence: number = EXPERIMENT_CONFIDENCE,
): Comparison | null {
  const varT = sampleVariance(treatment);
  const varC = sampleVariance(control);
  if (varT === null || varC === null) return null;
  const z = zCritical(confidence);
  const meanT = treatment.sum / treatment.n;
  const meanC = control.sum / control.n;
  const difference = meanT - meanC;
  const seT2 = varT / treatment.n;
  const seC2 = varC / control.n;
  const se = Math.sqrt(seT2 + seC2);
  return comparison(difference, se, relativeLift(meanT, seT2, meanC, seC2, z), se, z);
}

/**
 * Sample-ratio mismatch: Pearson's chi-square goodness of fit of the observed counts against
 * the expected shares (k − 1 degrees of freedom). A p-value under SRM_P_THRESHOLD (0.001, the
 * usual SRM alarm level: it rarely fires by chance however often results are looked at) means
 * assignment or exposure logging is broken and the results should not be trusted.
 * `expected` is renormalised over its keys; null when fewer than two variants or no subject.
 */
export function sampleRatioCheck(
  allocationKey: string,
  expected: Readonly<Record<string, number>>,
  observed: Readonly<Record<string, number>>,
  threshold: number = SRM_P_THRESHOLD,
): SampleRatioCheck | null {
  const variants = Object.keys(expected).filter((variant) => (expected[variant] ?? 0) > 0);
  const totalShare = variants.reduce((sum, variant) => sum + (expected[variant] ?? 0), 0);
  const total = variants.reduce((sum, variant) => sum + (observed[variant] ?? 0), 0);
  if (variants.length < 2 || total === 0) return null;
  const shares: Record<string, number> = {};
  const counts: Record<string, number> = {};
  let chiSquare = 0;
  for (const variant of variants) {
    const share = (expected[variant] ?? 0) / totalShare;
    const count = observed[variant] ?? 0;
    const expectedCount = total * share;
    chiSquare += (count - expectedCount) ** 2 / expectedCount;
    shares[variant] = share;
    counts[variant] = count;
  }
  const degreesOfFreedom = variants.length - 1;
  const pValue = Math.min(1, Math.max(0, 1 - chisquareCdf(chiSquare, degreesOfFreedom)));
  return {
    allocationKey,
    expected: shares,
    observed: counts,
    chiSquare,
    degreesOfFreedom,
    pValue,
    threshold,
    mismatch: pValue < threshold,
  };
}
