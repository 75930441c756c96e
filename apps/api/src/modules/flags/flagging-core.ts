import { createRequire } from 'node:module';
import { valueMatchesType, type UfcFlag, type UfcRule, type VariationType } from './ufc.js';

/**
 * `@datadog/flagging-core` evaluates flags; this file is the only place that loads it.
 * Node 20 cannot import its ESM build (directory imports → ERR_UNSUPPORTED_DIR_IMPORT), so it
 * is loaded as CommonJS (docs/decisions/002-flag-service.md).
 */
const require = createRequire(import.meta.url);

/** The evaluation outcome fields we read (OpenFeature `ResolutionDetails`). */
export interface FlagResolution {
  value: unknown;
  variant?: string;
  reason?: string;
  errorCode?: string;
  flagMetadata?: {
    allocationKey?: string;
    doLog?: boolean;
    __dd_split_serial_id?: number;
  };
}

/** OpenFeature's logger: flagging-core calls `logger.debug(message, context)`. */
export interface EvaluationLogger {
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  info(...args: unknown[]): void;
  debug(...args: unknown[]): void;
}

type OpenFeatureType = 'boolean' | 'string' | 'number' | 'object';

interface FlaggingCore {
  evaluateForSubject(
    flag: UfcFlag,
    type: OpenFeatureType,
    subjectKey: string | null | undefined,
    subjectAttributes: Record<string, unknown>,
    defaultValue: unknown,
    logger: EvaluationLogger,
    evaluationTimestampMs?: number,
  ): FlagResolution;
  isValidRule(rule: UfcRule): boolean;
  variantTypeToFlagValueType(variantType: VariationType): OpenFeatureType;
  OperatorType: Record<string, string>;
  /** Thrown by evaluateForSubject when a split with shards meets a subject without a key. */
  TargetingKeyMissingError: new () => Error;
}

const core = require('@datadog/flagging-core') as FlaggingCore;
const corePackage = require('@datadog/flagging-core/package.json') as { version: string };

export const FLAGGING_CORE_VERSION = corePackage.version;

/** The condition operators the installed evaluator understands (MATCHES, ONE_OF, IS_NULL…). */
export const SUPPORTED_OPERATORS: readonly string[] = Object.freeze(
  Object.values(core.OperatorType),
);

/** Who a flag is evaluated for: typed attributes (not wire strings) and maybe a targeting key. */
export interface EvaluationSubject {
  /** Empty or absent: the subject has no targeting key (see presentTargetingKey). */
  targetingKey?: string | undefined;
  attributes: Record<string, unknown>;
}

/**
 * The subject's targeting key, or undefined when it has none. The browser provider sends
 * `targeting_key: context.targetingKey || ''` (@datadog/openfeature-browser 1.2.5,
 * transport/fetchConfiguration.js): an empty key is how a context without one arrives, so it is
 * read as absent. (flagging-core itself treats only null and undefined as missing; a subject
 * whose key really is '' cannot be told apart from one without a key on the wire.)
 */
export function presentTargetingKey(targetingKey: string | undefined): string | undefined {
  return targetingKey === '' ? undefined : targetingKey;
}

/**
 * Evaluates one flag for one subject. A result without `variant` means "no assignment": its
 * `reason` says why as flagging-core does (DISABLED, or DEFAULT for an invalid flag or no
 * allocation matched), and `errorCode` is TARGETING_KEY_MISSING when a targeting key was needed
 * and missing. Its `value` is then null (no default is passed in: callers choose their own).
 *
 * Without a targeting key the flag is evaluated as flagging-core's own `evaluate` does
 * (evaluation/evaluation.js, evaluateRulesBasedConfiguration): rules see no `id` attribute, and
 * reaching a split with shards aborts the flag (evaluateForSubject.js, selectSplitUsingSharding
 * throws TargetingKeyMissingError, which `evaluate` answers as TARGETING_KEY_MISSING and the
 * default value). Allocations whose rules do not match are skipped before that, and a split
 * without shards needs no key, so such assignments are still made.
 *
 * flagging-core 3 refuses a whole flag (PARSE_ERROR, nobody assigned) when one variation is not
 * of the flag's type or one split names a variation that does not exist. The service keeps the
 * narrower contract `definitionWarnings` states (2.x's behaviour; Eppo's vectors expect it for a
 * mistyped variation): only the subjects that land on such a split are affected. A mistyped
 * variation comes back with its own value (the caller drops it as TYPE_MISMATCH); a split to a
 * missing variation falls through to the next allocation.
 */
export function evaluateFlag(
  flag: UfcFlag,
  subject: EvaluationSubject,
  logger: EvaluationLogger,
  nowMs: number,
): FlagResolution {
  const subjectKey = presentTargetingKey(subject.targetingKey);
  // As evaluateRulesBasedConfiguration: rules may target the key as `id`, when there is one.
  const attributes =
    subjectKey === undefined ? subject.attributes : { id: subjectKey, ...subject.attributes };
  const type = core.variantTypeToFlagValueType(flag.variationType);
  const { evaluable, mistyped, missing } = prepareForCore(flag);
  let allocations = evaluable.allocations;
  for (;;) {
    let result: FlagResolution;
    try {
      result = core.evaluateForSubject(
        { ...evaluable, allocations },
        type,
        subjectKey,
        attributes,
        null,
        logger,
        nowMs,
      );
    } catch (err) {
      if (!(err instanceof core.TargetingKeyMissingError)) throw err;
      logger.debug('no assignment: a split with shards needs a targeting key', {
        flagKey: flag.key,
      });
      return { value: null, reason: 'ERROR', errorCode: 'TARGETING_KEY_MISSING' };
    }
    if (result.variant === undefined) return result;
    if (result.variant === missing) {
      // Continue after the allocation that chose the missing variation (allocation keys are unique).
      const index = allocations.findIndex((a) => a.key === result.flagMetadata?.allocationKey);
      if (index < 0) return NO_ALLOCATION_MATCHED;
      allocations = allocations.slice(index + 1);
      continue;
    }
    return mistyped.has(result.variant)
      ? { ...result, value: mistyped.get(result.variant) }
      : result;
  }
}

/** What flagging-core answers when no allocation matched (evaluateForSubject.js). */
const NO_ALLOCATION_MATCHED: FlagResolution = Object.freeze({ value: null, reason: 'DEFAULT' });

const PLACEHOLDER_VALUES: Record<VariationType, unknown> = {
  BOOLEAN: false,
  STRING: '',
  INTEGER: 0,
  NUMERIC: 0,
  JSON: {},
};

interface PreparedFlag {
  /** The flag as flagging-core 3 accepts it (the flag itself when nothing had to change). */
  evaluable: UfcFlag;
  /** Original values of the variations given a placeholder of the right type. */
  mistyped: Map<string, unknown>;
  /** The key of the stand-in variation that splits to a missing variation now name. */
  missing: string | undefined;
}

/** Served flags are shared and frozen (repository.ts): each is prepared once. */
const prepared = new WeakMap<UfcFlag, PreparedFlag>();

function prepareForCore(flag: UfcFlag): PreparedFlag {
  let result = prepared.get(flag);
  if (result === undefined) {
    result = prepareFlag(flag);
    if (Object.isFrozen(flag)) prepared.set(flag, result);
  }
  return result;
}

function prepareFlag(flag: UfcFlag): PreparedFlag {
  const mistyped = new Map<string, unknown>();
  for (const variation of Object.values(flag.variations)) {
    if (!valueMatchesType(variation.value, flag.variationType)) {
      mistyped.set(variation.key, variation.value);
    }
  }
  const dangling = flag.allocations.some((allocation) =>
    allocation.splits.some((split) => !Object.hasOwn(flag.variations, split.variationKey)),
  );
  if (mistyped.size === 0 && !dangling) return { evaluable: flag, mistyped, missing: undefined };

  const placeholder = PLACEHOLDER_VALUES[flag.variationType];
  const variations: UfcFlag['variations'] = {};
  for (const [key, variation] of Object.entries(flag.variations)) {
    variations[key] = mistyped.has(key) ? { key, value: placeholder } : variation;
  }
  let missing: string | undefined;
  if (dangling) {
    missing = '(missing variation)';
    while (Object.hasOwn(variations, missing)) missing = `(${missing})`;
    variations[missing] = { key: missing, value: placeholder };
  }
  const allocations = flag.allocations.map((allocation) => ({
    ...allocation,
    splits: allocation.splits.map((split) =>
      Object.hasOwn(flag.variations, split.variationKey)
        ? split
        : { ...split, variationKey: missing as string },
    ),
  }));
  return { evaluable: { ...flag, variations, allocations }, mistyped, missing };
}

/** Whether flagging-core accepts the rule (known operators, compilable regular expressions). */
export function isRuleEvaluable(rule: UfcRule): boolean {
  return core.isValidRule(rule);
}
