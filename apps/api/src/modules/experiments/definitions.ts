import {
  INSTANT_PAY_ALLOCATION,
  INSTANT_PAY_CONTROL,
  INSTANT_PAY_SPLIT,
  type ExperimentSource,
} from '@showroom/contracts/experiments';
import { INSTANT_PAY_FLAG } from '@showroom/contracts/monitoring-constants';
import type { UfcAllocation, UfcFlag, UfcSplit } from '../flags/ufc.js';

/**
 * What results need to know of an experiment (docs/decisions/017-experiment-statistics.md):
 * its variants, its control, and the split of each allocation that splits subjects between
 * variants, for the sample-ratio check.
 */
export interface ExperimentDefinition {
  flagKey: string;
  source: ExperimentSource;
  variants: string[];
  control: string;
  /** Allocation key → expected share per variant (summing to 1), for allocations of 2+ variants. */
  splits: Map<string, Record<string, number>>;
}

/** The shop's client-side experiment: its split is the contract's, not the flag service's. */
export const INSTANT_PAY_EXPERIMENT: ExperimentDefinition = {
  flagKey: INSTANT_PAY_FLAG,
  source: 'client',
  variants: Object.keys(INSTANT_PAY_SPLIT),
  control: INSTANT_PAY_CONTROL,
  splits: new Map([[INSTANT_PAY_ALLOCATION, { ...INSTANT_PAY_SPLIT }]]),
};

/** Variants named like a control, in the order they are preferred. */
const CONTROL_NAMES = ['control', 'off'];

/**
 * A split's share of its allocation's traffic: the product over its shards of the share of the
 * shard space its ranges cover (a subject must fall in every shard); no shard is everyone.
 */
export function splitShare(split: UfcSplit): number {
  return split.shards.reduce((share, shard) => {
    const covered = shard.ranges.reduce((sum, range) => sum + (range.end - range.start), 0);
    return shard.totalShards > 0 ? share * Math.min(1, covered / shard.totalShards) : 0;
  }, 1);
}

/** Expected share per variant of an allocation: its splits' shares, normalised to sum to 1. */
export function allocationShares(allocation: UfcAllocation): Record<string, number> {
  const shares: Record<string, number> = {};
  for (const split of allocation.splits) {
    shares[split.variationKey] = (shares[split.variationKey] ?? 0) + splitShare(split);
  }
  const total = Object.values(shares).reduce((sum, share) => sum + share, 0);
  if (total <= 0) return {};
  for (const variant of Object.keys(shares)) shares[variant] = shares[variant]! / total;
  return shares;
}

/** The distinct variants the flag's allocations serve, in the order the flag lists its variations. */
export function servedVariants(flag: UfcFlag): string[] {
  const served = new Set(flag.allocations.flatMap((a) => a.splits.map((s) => s.variationKey)));
  const ordered = Object.keys(flag.variations).filter((key) => served.has(key));
  return [...ordered, ...[...served].filter((key) => !ordered.includes(key)).sort()];
}

/**
 * A flag-service flag as an experiment. Control: a variant named `control` or `off`, else the
 * variation of the `default` allocation (or the last one without rules and a single split:
 * what everyone else gets), else the first variant.
 */
export function flagExperiment(flag: UfcFlag): ExperimentDefinition {
  const variants = servedVariants(flag);
  const fallback =
    flag.allocations.find((a) => a.key === 'default') ??
    flag.allocations.findLast((a) => (a.rules ?? []).length === 0 && a.splits.length === 1);
  const control =
    CONTROL_NAMES.find((name) => variants.includes(name)) ??
    fallback?.splits[0]?.variationKey ??
    variants[0] ??
    '';
  const splits = new Map<string, Record<string, number>>();
  for (const allocation of flag.allocations) {
    const shares = allocationShares(allocation);
    if (Object.keys(shares).length >= 2) splits.set(allocation.key, shares);
  }
  return { flagKey: flag.key, source: 'flag-service', variants, control, splits };
}

/** Whether a flag is an experiment at all: its allocations serve more than one variant. */
export function isExperimentFlag(flag: UfcFlag): boolean {
  return servedVariants(flag).length > 1;
}
