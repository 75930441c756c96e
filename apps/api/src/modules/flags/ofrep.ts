import type {
  OfrepContext,
  OfrepEvaluationFailure,
  OfrepEvaluationSuccess,
  OfrepMetadata,
} from '@showroom/contracts/ofrep';
import type { EvaluationLogger, EvaluationSubject } from './flagging-core.js';
import { assignFlag, type DroppedFlag, type PrecomputedFlag } from './precompute.js';
import type { UfcFlag } from './ufc.js';

/**
 * One flag's OFREP answer for one subject, from the evaluation precompute makes (assignFlag):
 * the two protocols cannot disagree on a value (docs/decisions/016-ofrep.md).
 */
export type OfrepOutcome =
  | { status: 200; body: OfrepEvaluationSuccess }
  | { status: 400 | 500; body: OfrepEvaluationFailure; dropped?: DroppedFlag };

/**
 * The subject of an OFREP context. Its attributes arrive with their JSON types, so they are used
 * as they are (precompute's arrive as strings: attributes.ts). `targetingKey` is the subject's
 * key and not an attribute, as flagging-core's own evaluation has it (evaluation.js); rules still
 * see the key as `id` (evaluateFlag). An empty key is no key, as on the precompute route.
 */
export function ofrepSubject(context: OfrepContext | undefined): EvaluationSubject {
  const { targetingKey, ...attributes } = context ?? {};
  return { targetingKey, attributes };
}

/**
 * - An assignment answers its value, variant and reason, with the metadata a browser needs to
 *   log an exposure (allocationKey, doLog, variationType, the split's extraLogging).
 * - No assignment (flag disabled, no allocation matched) answers a success without `value`:
 *   OFREP's code-default evaluation (ADR 0006), so the caller's default applies, with reason
 *   DISABLED or DEFAULT and doLog false (nothing was assigned, nothing to log).
 * - A missing targeting key answers 400 TARGETING_KEY_MISSING; a value of the wrong type answers
 *   400 GENERAL (OFREP has no TYPE_MISMATCH code) and an evaluation that threw 500 GENERAL.
 */
export function ofrepEvaluation(
  flag: UfcFlag,
  subject: EvaluationSubject,
  logger: EvaluationLogger,
  nowMs: number,
): OfrepOutcome {
  const key = flag.key;
  const outcome = assignFlag(flag, subject, logger, nowMs);
  switch (outcome.status) {
    case 'assigned': {
      const { assignment } = outcome;
      return {
        status: 200,
        body: {
          key,
          value: assignment.variationValue,
          reason: assignment.reason,
          variant: assignment.variationKey,
          metadata: assignmentMetadata(assignment),
        },
      };
    }
    case 'unassigned':
      return {
        status: 200,
        body: {
          key,
          reason: outcome.reason,
          metadata: { doLog: false, variationType: flag.variationType },
        },
      };
    case 'targeting-key-missing':
      return {
        status: 400,
        body: {
          key,
          errorCode: 'TARGETING_KEY_MISSING',
          errorDetails: `Flag "${key}" assigns by targeting key and the context has none`,
        },
      };
    case 'dropped': {
      const { dropped } = outcome;
      return dropped.reason === 'TYPE_MISMATCH'
        ? {
            status: 400,
            body: { key, errorCode: 'GENERAL', errorDetails: `TYPE_MISMATCH: ${dropped.detail}` },
            dropped,
          }
        : {
            status: 500,
            body: { key, errorCode: 'GENERAL', errorDetails: 'The flag could not be evaluated' },
            dropped,
          };
    }
  }
}

function assignmentMetadata(assignment: PrecomputedFlag): OfrepMetadata {
  const metadata: OfrepMetadata = {
    allocationKey: assignment.allocationKey,
    doLog: assignment.doLog,
    variationType: assignment.variationType,
  };
  for (const [name, value] of Object.entries(assignment.extraLogging)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      metadata[`extraLogging.${name}`] = value;
    }
  }
  return metadata;
}
