import { ApiError, badRequest, conflict } from '../../http/errors.js';
import { isRuleEvaluable } from './flagging-core.js';
import type { UfcAllocation, UfcCondition, UfcFlag, UfcRule, UfcShard, UfcSplit } from './ufc.js';

/** Shard space for rollouts written by the operator api: 0.01 % steps. */
export const ROLLOUT_TOTAL_SHARDS = 10_000;
export const MAX_REGEX_LENGTH = 256;

/** A validated change to one flag, with what the audit trail records of it. */
export interface FlagChange {
  action: 'enable' | 'disable' | 'rollout' | 'rules' | 'variation';
  flag: UfcFlag;
  before: unknown;
  after: unknown;
}

/** Share of subjects a split takes, in % (shards with different salts are independent draws). */
export function splitPercentage(split: UfcSplit): number {
  return roundPercentage(splitShare(split) * 100);
}

/** Share of the subjects who pass an allocation's rules that it assigns, in %. */
export function allocationRolloutPercentage(allocation: UfcAllocation): number {
  const total = allocation.splits.reduce((sum, split) => sum + splitShare(split), 0);
  return roundPercentage(Math.min(1, total) * 100);
}

function splitShare(split: UfcSplit): number {
  return split.shards.reduce((product, shard) => product * shardCoverage(shard), 1);
}

export function setFlagEnabled(flag: UfcFlag, enabled: boolean): FlagChange | null {
  if (flag.enabled === enabled) return null;
  return {
    action: enabled ? 'enable' : 'disable',
    flag: { ...flag, enabled },
    before: { enabled: flag.enabled },
    after: { enabled },
  };
}

/**
 * Sets how many subjects an allocation takes. With one split, that split's shards become one
 * shard covering `percentage` % (same salt when it had exactly one, so subjects already in
 * stay in when it grows). With several splits (an experiment), each split gets the same
 * "traffic" shard, so the variations keep their relative weights.
 */
export function setAllocationRollout(
  flag: UfcFlag,
  allocationKey: string,
  percentage: number,
): FlagChange | null {
  const allocation = findAllocation(flag, allocationKey);
  if (allocation.splits.length === 0) {
    throw conflict(
      'ALLOCATION_HAS_NO_SPLIT',
      `Allocation "${allocationKey}" of flag "${flag.key}" has no split to roll out`,
      'allocationKey',
    );
  }
  const range = { start: 0, end: Math.round((percentage * ROLLOUT_TOTAL_SHARDS) / 100) };
  let splits: UfcSplit[];
  if (allocation.splits.length === 1) {
    const [split] = allocation.splits as [UfcSplit];
    const [onlyShard] = split.shards;
    const salt =
      split.shards.length === 1 && onlyShard ? onlyShard.salt : `${flag.key}-${allocation.key}`;
    splits = [{ ...split, shards: [{ salt, totalShards: ROLLOUT_TOTAL_SHARDS, ranges: [range] }] }];
  } else {
    const salt = `${flag.key}-${allocation.key}-traffic`;
    const traffic: UfcShard = { salt, totalShards: ROLLOUT_TOTAL_SHARDS, ranges: [range] };
    splits = allocation.splits.map((split) => {
      const others = split.shards.filter((shard) => shard.salt !== salt);
      return { ...split, shards: [traffic, ...others] };
    });
  }
  const updated = { ...allocation, splits };
  return changeAllocation(flag, updated, 'rollout', (a) => ({
    allocationKey: a.key,
    rolloutPercentage: allocationRolloutPercentage(a),
    splits: a.splits,
  }));
}

/**
 * Makes an allocation of one split serve another variation (a scenario's stronger fault value,
 * docs/decisions/020-guarded-rollout-scenario.md); its shards, so who it takes, stay.
 */
export function setAllocationVariation(
  flag: UfcFlag,
  allocationKey: string,
  variationKey: string,
): FlagChange | null {
  const allocation = findAllocation(flag, allocationKey);
  if (!flag.variations[variationKey]) {
    throw badRequest('variation', `Flag "${flag.key}" has no variation "${variationKey}"`);
  }
  const [split, ...others] = allocation.splits;
  if (!split || others.length > 0) {
    throw badRequest(
      'variation',
      `Allocation "${allocationKey}" of flag "${flag.key}" must have exactly one split to serve one variation`,
    );
  }
  const updated = { ...allocation, splits: [{ ...split, variationKey }] };
  return changeAllocation(flag, updated, 'variation', (a) => ({
    allocationKey: a.key,
    variation: a.splits[0]?.variationKey ?? null,
  }));
}

/** Replaces an allocation's targeting rules (any rule matching lets a subject in; none = everyone). */
export function setAllocationRules(
  flag: UfcFlag,
  allocationKey: string,
  rules: { conditions: { attribute: string; operator: string; value: unknown }[] }[],
): FlagChange | null {
  const allocation = findAllocation(flag, allocationKey);
  const checked: UfcRule[] = rules.map((rule, r) => ({
    conditions: rule.conditions.map((condition, c) =>
      checkCondition(condition, `rules.${r}.conditions.${c}`),
    ),
  }));
  checked.forEach((rule, r) => {
    if (!isRuleEvaluable(rule)) {
      throw badRequest(`rules.${r}`, `rules.${r} cannot be evaluated`);
    }
  });
  return changeAllocation(flag, { ...allocation, rules: checked }, 'rules', (a) => ({
    allocationKey: a.key,
    rules: a.rules ?? [],
  }));
}

function checkCondition(
  condition: { attribute: string; operator: string; value: unknown },
  field: string,
): UfcCondition {
  const { attribute, operator, value } = condition;
  const fail = (expected: string) =>
    badRequest(`${field}.value`, `${field}.value must be ${expected} for operator ${operator}`);
  switch (operator) {
    case 'ONE_OF':
    case 'NOT_ONE_OF':
      if (
        !Array.isArray(value) ||
        value.length === 0 ||
        !value.every((v) => typeof v === 'string')
      ) {
        throw fail('a non-empty array of strings');
      }
      return { attribute, operator, value: value as string[] };
    case 'GT':
    case 'GTE':
    case 'LT':
    case 'LTE':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a number');
      return { attribute, operator, value };
    case 'IS_NULL':
      if (typeof value !== 'boolean') throw fail('true or false');
      return { attribute, operator, value };
    case 'MATCHES':
    case 'NOT_MATCHES':
      if (typeof value !== 'string' || value.length === 0 || value.length > MAX_REGEX_LENGTH) {
        throw fail(`a regular expression of 1 to ${MAX_REGEX_LENGTH} characters`);
      }
      return { attribute, operator, value };
    default:
      // An operator a newer flagging-core added: its value is checked by isRuleEvaluable.
      if (typeof value !== 'string') throw fail('a string');
      return { attribute, operator, value };
  }
}

function findAllocation(flag: UfcFlag, allocationKey: string): UfcAllocation {
  const allocation = flag.allocations.find((candidate) => candidate.key === allocationKey);
  if (!allocation) {
    throw new ApiError(
      400,
      'VALIDATION_ERROR',
      `Flag "${flag.key}" has no allocation "${allocationKey}"`,
      'allocationKey',
    );
  }
  return allocation;
}

function changeAllocation(
  flag: UfcFlag,
  updated: UfcAllocation,
  action: FlagChange['action'],
  describe: (allocation: UfcAllocation) => unknown,
): FlagChange | null {
  const current = findAllocation(flag, updated.key);
  const before = describe(current);
  const after = describe(updated);
  if (JSON.stringify(before) === JSON.stringify(after)) return null;
  return {
    action,
    flag: {
      ...flag,
      allocations: flag.allocations.map((allocation) =>
        allocation.key === updated.key ? updated : allocation,
      ),
    },
    before,
    after,
  };
}

function shardCoverage(shard: UfcShard): number {
  const covered = shard.ranges.reduce(
    (sum, range) => sum + Math.max(0, Math.min(range.end, shard.totalShards) - range.start),
    0,
  );
  return Math.min(1, covered / shard.totalShards);
}

function roundPercentage(value: number): number {
  return Math.round(value * 100) / 100;
}
