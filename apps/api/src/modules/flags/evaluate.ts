import type { EvaluationLogger } from './flagging-core.js';
import { assignFlag } from './precompute.js';
import type { FlagsRepository } from './repository.js';

/** Who a flag is evaluated for: the targeting key ('' for none) and typed attributes. */
export interface FlagSubject {
  targetingKey: string;
  attributes: Record<string, unknown>;
}

/**
 * One flag's value for one subject, as the flag service would precompute it; `undefined` when
 * the flag does not exist, is disabled, assigns nothing to the subject, serves a value of the
 * wrong type or cannot be evaluated. Callers choose their own default for `undefined`. The
 * subject may be a function that finds it: it is called only for an enabled flag, so a
 * disabled one (every fault flag, most of the time) costs no session lookup.
 */
export type EvaluateFlagValue = (
  key: string,
  subject: FlagSubject | (() => Promise<FlagSubject>),
) => Promise<unknown>;

const silent: EvaluationLogger = { error() {}, warn() {}, info() {}, debug() {} };

/**
 * Server-side evaluation for other modules (plain function calls, no HTTP): reads the served
 * flag (re-read when the configuration's createdAt moved), so an operator's change applies to
 * the next evaluation on every replica.
 */
export function createFlagEvaluator(
  flags: Pick<FlagsRepository, 'findServedFlag'>,
  now: () => number = Date.now,
): EvaluateFlagValue {
  return async (key, subject) => {
    const stored = await flags.findServedFlag(key);
    if (!stored?.flag.enabled) return undefined;
    const resolved = typeof subject === 'function' ? await subject() : subject;
    // As precompute: rules may target the key as `id`; no key, no assignment from shards.
    const outcome = assignFlag(stored.flag, resolved, silent, now());
    return outcome.status === 'assigned' ? outcome.assignment.variationValue : undefined;
  };
}
