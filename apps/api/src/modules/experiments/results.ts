import {
  CONVERSION_EVENT,
  EXPERIMENT_CONFIDENCE,
  EXPERIMENT_SERIES_MAX_POINTS,
  type ExperimentList,
  type ExperimentReport,
  type SeriesPoint,
  type VariantResult,
} from '@showroom/contracts/experiments';
import type { FlagsRepository } from '../flags/repository.js';
import {
  INSTANT_PAY_EXPERIMENT,
  flagExperiment,
  isExperimentFlag,
  type ExperimentDefinition,
} from './definitions.js';
import type { BucketCount, ExperimentsRepository, VariantTotals } from './repository.js';
import {
  compareMeans,
  compareProportions,
  meanInterval,
  sampleRatioCheck,
  wilsonInterval,
  type Moments,
} from './statistics.js';

/** Buckets are whole minutes at least: finer steps only add points, not information. */
const MIN_BUCKET_MS = 60_000;

export type ExperimentResults = ReturnType<typeof createExperimentResults>;

/**
 * Experiment results (docs/decisions/017-experiment-statistics.md): the flag service's flags
 * that serve more than one variant, and the shop's instant_pay, read from exposures and
 * tracking events.
 */
export function createExperimentResults(options: {
  flags: FlagsRepository;
  experiments: ExperimentsRepository;
  now: () => number;
}) {
  const { flags, experiments, now } = options;

  const definitions = async (): Promise<ExperimentDefinition[]> => {
    const { flags: served } = await flags.getServingSnapshot();
    return [
      ...served.filter(isExperimentFlag).map(flagExperiment),
      ...(served.some((flag) => flag.key === INSTANT_PAY_EXPERIMENT.flagKey)
        ? []
        : [INSTANT_PAY_EXPERIMENT]),
    ];
  };

  /** A served flag, or instant_pay (the shop's own, unless the flag service has taken it over). */
  const findDefinition = async (flagKey: string): Promise<ExperimentDefinition | undefined> => {
    const flag = await flags.findServedFlag(flagKey);
    if (flag) return flagExperiment(flag.flag);
    return flagKey === INSTANT_PAY_EXPERIMENT.flagKey ? INSTANT_PAY_EXPERIMENT : undefined;
  };

  return {
    async list(): Promise<ExperimentList> {
      const [all, exposed] = await Promise.all([
        definitions(),
        experiments.exposedSubjectsPerFlag(),
      ]);
      return {
        experiments: all.map((definition) => ({
          flagKey: definition.flagKey,
          source: definition.source,
          variants: definition.variants,
          control: definition.control,
          exposedSubjects: exposed.get(definition.flagKey) ?? 0,
        })),
      };
    },

    /** The report of one flag; undefined when the flag service has no such flag. */
    async report(flagKey: string, since?: number): Promise<ExperimentReport | undefined> {
      const definition = await findDefinition(flagKey);
      if (!definition) return undefined;
      const [totals, currencies] = await Promise.all([
        experiments.variantTotals(flagKey, since),
        experiments.purchaseCurrencies(flagKey, since),
      ]);
      const window = seriesWindow(totals);
      const buckets = window
        ? await experiments.bucketCounts(flagKey, since, window.start, window.width)
        : [];
      const variants = reportVariants(definition, totals);
      return {
        flagKey,
        source: definition.source,
        control: definition.control,
        since: since ?? null,
        generatedAt: now(),
        confidence: EXPERIMENT_CONFIDENCE,
        conversionEvent: CONVERSION_EVENT,
        currencies,
        variants: variantResults(definition.control, variants, totals),
        sampleRatio: sampleRatio(definition, totals),
        series: window
          ? variants.map((variant) => ({
              variant,
              points: cumulativeSeries(variant, buckets, window),
            }))
          : [],
      };
    },
  };
}

/** The definition's variants, then any variant exposures name that it no longer serves. */
function reportVariants(definition: ExperimentDefinition, totals: VariantTotals[]): string[] {
  const observed = [...new Set(totals.map((row) => row.variant))].sort();
  const variants = [
    ...definition.variants,
    ...observed.filter((v) => !definition.variants.includes(v)),
  ];
  // The control first, so every other row reads against the one above it.
  return [
    ...variants.filter((variant) => variant === definition.control),
    ...variants.filter((variant) => variant !== definition.control),
  ];
}

interface Summed {
  exposed: number;
  conversions: number;
  revenueCents: number;
  revenueSquares: number;
}

/** A variant's totals over every allocation it was first exposed under. */
function sumVariant(variant: string, totals: VariantTotals[]): Summed {
  const summed: Summed = { exposed: 0, conversions: 0, revenueCents: 0, revenueSquares: 0 };
  for (const row of totals) {
    if (row.variant !== variant) continue;
    summed.exposed += row.exposed;
    summed.conversions += row.conversions;
    summed.revenueCents += row.revenueCents;
    summed.revenueSquares += row.revenueSquares;
  }
  return summed;
}

const moments = (summed: Summed): Moments => ({
  n: summed.exposed,
  sum: summed.revenueCents,
  sumOfSquares: summed.revenueSquares,
});

function variantResults(
  control: string,
  variants: string[],
  totals: VariantTotals[],
): VariantResult[] {
  const controlTotals = sumVariant(control, totals);
  return variants.map((variant) => {
    const summed = sumVariant(variant, totals);
    const isControl = variant === control;
    return {
      variant,
      isControl,
      exposed: summed.exposed,
      conversions: summed.conversions,
      conversionRate: wilsonInterval(summed.conversions, summed.exposed),
      revenueCents: summed.revenueCents,
      revenuePerSubjectCents: meanInterval(moments(summed)),
      conversionLift: isControl
        ? null
        : compareProportions(
            { successes: summed.conversions, n: summed.exposed },
            { successes: controlTotals.conversions, n: controlTotals.exposed },
          ),
      revenueLift: isControl ? null : compareMeans(moments(summed), moments(controlTotals)),
    };
  });
}

/**
 * The sample-ratio check of the split allocation most subjects were first exposed under,
 * against its expected shares restricted to the variants observed under it.
 */
function sampleRatio(definition: ExperimentDefinition, totals: VariantTotals[]) {
  let best: { key: string; exposed: number } | undefined;
  for (const key of definition.splits.keys()) {
    const exposed = totals
      .filter((row) => row.allocationKey === key)
      .reduce((sum, row) => sum + row.exposed, 0);
    if (exposed > 0 && (!best || exposed > best.exposed)) best = { key, exposed };
  }
  if (!best) return null;
  const shares = definition.splits.get(best.key)!;
  const observed: Record<string, number> = {};
  for (const row of totals) {
    if (row.allocationKey === best.key) observed[row.variant] = row.exposed;
  }
  const expected = Object.fromEntries(
    Object.entries(shares).filter(([variant]) => (observed[variant] ?? 0) > 0),
  );
  return sampleRatioCheck(best.key, expected, observed);
}

interface SeriesWindow {
  start: number;
  width: number;
  buckets: number;
}

/** From the first exposure to the last exposure or conversion, in at most 100 equal buckets. */
function seriesWindow(totals: VariantTotals[]): SeriesWindow | undefined {
  if (totals.length === 0) return undefined;
  const start = Math.min(...totals.map((row) => row.firstExposureAt));
  const end = Math.max(
    ...totals.map((row) => Math.max(row.lastExposureAt, row.lastConversionAt ?? 0)),
  );
  const width = Math.max(
    MIN_BUCKET_MS,
    Math.ceil((end - start + 1) / EXPERIMENT_SERIES_MAX_POINTS),
  );
  return { start, width, buckets: Math.floor((end - start) / width) + 1 };
}

/** Cumulative exposed subjects and conversions of one variant at the end of each bucket. */
function cumulativeSeries(
  variant: string,
  counts: BucketCount[],
  window: SeriesWindow,
): SeriesPoint[] {
  const exposed = new Array<number>(window.buckets).fill(0);
  const converted = new Array<number>(window.buckets).fill(0);
  for (const count of counts) {
    if (count.variant !== variant || count.bucket < 0 || count.bucket >= window.buckets) continue;
    (count.kind === 'exposed' ? exposed : converted)[count.bucket]! += count.n;
  }
  let totalExposed = 0;
  let totalConverted = 0;
  return exposed.map((n, bucket) => {
    totalExposed += n;
    totalConverted += converted[bucket]!;
    return {
      at: window.start + (bucket + 1) * window.width,
      exposed: totalExposed,
      conversions: totalConverted,
      rate: totalExposed > 0 ? totalConverted / totalExposed : null,
    };
  });
}
