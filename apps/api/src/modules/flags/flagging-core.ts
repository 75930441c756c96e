import { createRequire } from 'node:module';
import type { UfcFlag, UfcRule, VariationType } from './ufc.js';

/**
 * `@datadog/flagging-core` evaluates flags; this file is the only place that loads it.
 * Node 20 cannot import its ESM build (directory imports → ERR_UNSUPPORTED_DIR_IMPORT), so it
 * is loaded as CommonJS. See shared/design/INTEGRATION-NOTES.md "Node 20 and versions".
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
}

const core = require('@datadog/flagging-core') as FlaggingCore;
const corePackage = require('@datadog/flagging-core/package.json') as { version: string };

export const FLAGGING_CORE_VERSION = corePackage.version;

/** The condition operators the installed evaluator understands (MATCHES, ONE_OF, IS_NULL…). */
export const SUPPORTED_OPERATORS: readonly string[] = Object.freeze(
  Object.values(core.OperatorType),
);

/**
 * Evaluates one flag for one subject. A result without `variant` means "no assignment"
 * (flag disabled, invalid, or no allocation matched): the caller gets `undefined` back then.
 */
export function evaluateFlag(
  flag: UfcFlag,
  subjectKey: string,
  attributes: Record<string, unknown>,
  logger: EvaluationLogger,
  nowMs: number,
): FlagResolution | undefined {
  const type = core.variantTypeToFlagValueType(flag.variationType);
  const result = core.evaluateForSubject(flag, type, subjectKey, attributes, null, logger, nowMs);
  return result.variant === undefined ? undefined : result;
}

/** Whether flagging-core accepts the rule (known operators, compilable regular expressions). */
export function isRuleEvaluable(rule: UfcRule): boolean {
  return core.isValidRule(rule);
}
