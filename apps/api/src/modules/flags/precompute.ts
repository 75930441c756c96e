import { evaluateFlag, type EvaluationLogger, type EvaluationSubject } from './flagging-core.js';
import { valueMatchesType, type UfcFlag, type VariationType } from './ufc.js';

/** One flag's assignment as the Datadog browser provider reads it from precompute-assignments. */
export interface PrecomputedFlag {
  allocationKey: string;
  variationKey: string;
  variationType: VariationType;
  variationValue: unknown;
  reason: string;
  doLog: boolean;
  extraLogging: Record<string, unknown>;
}

/** Attributes already typed (see parseTargetingAttributes); an empty targeting key is none. */
export type PrecomputeSubject = EvaluationSubject;

/** A flag left out of the answer for a reason worth logging (no assignment is not one). */
export interface DroppedFlag {
  flagKey: string;
  reason: 'TYPE_MISMATCH' | 'EVALUATION_ERROR';
  detail: string;
}

export interface PrecomputeResult {
  flags: Record<string, PrecomputedFlag>;
  dropped: DroppedFlag[];
}

/**
 * Evaluates every flag for one subject. Flags without an assignment (disabled, no allocation
 * matched) are left out, so the provider answers FLAG_NOT_FOUND and the caller's default.
 * A value that contradicts its flag's type (an INTEGER flag serving 3.14) is left out too:
 * the provider would otherwise hand a typed caller a value of the wrong type.
 * Without a targeting key, flags whose assignment needs one (a split with shards) are left out
 * as well: flagging-core answers TARGETING_KEY_MISSING for them (see evaluateFlag).
 */
export function precomputeAssignments(
  flags: readonly UfcFlag[],
  subject: PrecomputeSubject,
  logger: EvaluationLogger,
  nowMs: number,
): PrecomputeResult {
  const result: PrecomputeResult = { flags: {}, dropped: [] };
  for (const flag of flags) {
    let resolution;
    try {
      resolution = evaluateFlag(flag, subject, logger, nowMs);
    } catch (err) {
      result.dropped.push({ flagKey: flag.key, reason: 'EVALUATION_ERROR', detail: String(err) });
      continue;
    }
    if (!resolution?.variant) continue;
    if (!valueMatchesType(resolution.value, flag.variationType)) {
      result.dropped.push({
        flagKey: flag.key,
        reason: 'TYPE_MISMATCH',
        detail: `variation "${resolution.variant}" is not a ${flag.variationType}`,
      });
      continue;
    }
    const allocationKey = resolution.flagMetadata?.allocationKey ?? '';
    result.flags[flag.key] = {
      allocationKey,
      variationKey: resolution.variant,
      variationType: flag.variationType,
      variationValue: resolution.value,
      reason: resolution.reason ?? 'DEFAULT',
      doLog: resolution.flagMetadata?.doLog ?? false,
      extraLogging: extraLoggingOf(
        flag,
        allocationKey,
        resolution.variant,
        resolution.flagMetadata?.__dd_split_serial_id,
      ),
    };
  }
  return result;
}

/** The chosen split's extraLogging; flagging-core reports the split only by variation and serial id. */
function extraLoggingOf(
  flag: UfcFlag,
  allocationKey: string,
  variationKey: string,
  serialId: number | undefined,
): Record<string, unknown> {
  const allocation = flag.allocations.find((candidate) => candidate.key === allocationKey);
  const split = allocation?.splits.find(
    (candidate) =>
      candidate.variationKey === variationKey &&
      (serialId === undefined || candidate.serialId === serialId),
  );
  return split?.extraLogging ?? {};
}
