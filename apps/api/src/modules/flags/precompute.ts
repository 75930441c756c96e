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
 * One flag for one subject, as both protocols answer it (precompute-assignments here, OFREP in
 * ofrep.ts: one evaluator behind two protocols, docs/decisions/016-ofrep.md).
 * - `assigned`: the subject gets a variation of the flag's type.
 * - `unassigned`: no assignment (flag disabled, or no allocation matched); `reason` is
 *   flagging-core's (DISABLED or DEFAULT). The caller's default applies.
 * - `targeting-key-missing`: the assignment needs a targeting key and the subject has none (a
 *   split with shards; see evaluateFlag). The caller's default applies.
 * - `dropped`: a value that contradicts its flag's type (an INTEGER flag serving 3.14), or an
 *   evaluation that threw: worth logging, and the caller's default applies.
 */
export type FlagAssignment =
  | { status: 'assigned'; assignment: PrecomputedFlag }
  | { status: 'unassigned'; reason: string }
  | { status: 'targeting-key-missing' }
  | { status: 'dropped'; dropped: DroppedFlag };

export function assignFlag(
  flag: UfcFlag,
  subject: PrecomputeSubject,
  logger: EvaluationLogger,
  nowMs: number,
): FlagAssignment {
  let resolution;
  try {
    resolution = evaluateFlag(flag, subject, logger, nowMs);
  } catch (err) {
    return {
      status: 'dropped',
      dropped: { flagKey: flag.key, reason: 'EVALUATION_ERROR', detail: String(err) },
    };
  }
  if (resolution.errorCode === 'TARGETING_KEY_MISSING') return { status: 'targeting-key-missing' };
  if (!resolution.variant) return { status: 'unassigned', reason: resolution.reason ?? 'DEFAULT' };
  if (!valueMatchesType(resolution.value, flag.variationType)) {
    return {
      status: 'dropped',
      dropped: {
        flagKey: flag.key,
        reason: 'TYPE_MISMATCH',
        detail: `variation "${resolution.variant}" is not a ${flag.variationType}`,
      },
    };
  }
  const allocationKey = resolution.flagMetadata?.allocationKey ?? '';
  return {
    status: 'assigned',
    assignment: {
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
    },
  };
}

/**
 * Evaluates every flag for one subject (assignFlag). Flags without an assignment (disabled, no
 * allocation matched) are left out, so the provider answers FLAG_NOT_FOUND and the caller's
 * default. A value that contradicts its flag's type is left out too: the provider would
 * otherwise hand a typed caller a value of the wrong type. Without a targeting key, flags whose
 * assignment needs one (a split with shards) are left out as well.
 */
export function precomputeAssignments(
  flags: readonly UfcFlag[],
  subject: PrecomputeSubject,
  logger: EvaluationLogger,
  nowMs: number,
): PrecomputeResult {
  const result: PrecomputeResult = { flags: {}, dropped: [] };
  for (const flag of flags) {
    const outcome = assignFlag(flag, subject, logger, nowMs);
    if (outcome.status === 'assigned') result.flags[flag.key] = outcome.assignment;
    else if (outcome.status === 'dropped') result.dropped.push(outcome.dropped);
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
