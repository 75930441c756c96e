import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Compile } from 'typebox/compile';
import { REPO_ROOT } from '../../config.js';
import { FLAGGING_CORE_VERSION, isRuleEvaluable } from './flagging-core.js';
import type { SyncResult } from './repository.js';
import {
  structuralProblems,
  UfcDocumentSchema,
  UfcFlagSchema,
  valueMatchesType,
  VARIATION_TYPES,
  type UfcConfiguration,
  type UfcDocument,
  type UfcFlag,
} from './ufc.js';

/** Where the shop's own flag definitions live; FLAGS_PATH replaces them. */
export const DEFAULT_FLAGS_PATH = path.join(REPO_ROOT, 'apps', 'api', 'flags');

/** A definition file that cannot be served: unreadable, not UFC, or inconsistent. */
export class FlagConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagConfigurationError';
  }
}

export interface FlagDefinitions {
  environment: string;
  flags: UfcFlag[];
  /** The files read, for the audit trail and logs. */
  sources: string[];
  /**
   * For the start-up log: flags skipped as malformed (file, flag key, what is wrong) and flags
   * that load but will not assign as written (unknown operator, mistyped variation).
   */
  warnings: string[];
}

/** One definition file: its servable flags, and a warning for each flag it skipped. */
export interface ParsedFlagDocument {
  source: string;
  configuration: UfcConfiguration;
  /** `<file>: flag "<key>" skipped: <what is wrong>`, one per malformed flag. */
  skipped: string[];
}

const documentValidator = Compile(UfcDocumentSchema);
const flagValidator = Compile(UfcFlagSchema);

/** Reads one UFC JSON file, or every `*.json` file of a folder (in name order), and merges them. */
export async function readFlagDefinitions(target: string): Promise<FlagDefinitions> {
  let files: string[];
  try {
    const stat = await fs.stat(target);
    files = stat.isDirectory()
      ? (await fs.readdir(target))
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => path.join(target, name))
      : [target];
  } catch (err) {
    throw new FlagConfigurationError(`Cannot read flag definitions at ${target}: ${String(err)}`);
  }
  if (files.length === 0) {
    throw new FlagConfigurationError(`No *.json flag definition file in ${target}`);
  }
  const parsed = await Promise.all(
    files.map(async (file) => parseFlagDefinitions(await fs.readFile(file, 'utf8'), file)),
  );
  return mergeFlagDefinitions(parsed);
}

/**
 * Parses one UFC document; `source` names it in messages. A document that is not JSON or has no
 * `flags` object is an error. Each flag is then checked on its own, as Datadog's evaluator does
 * (flagging-core's evaluateForSubject.js answers PARSE_ERROR for a flag failing isValidFlag and
 * evaluates the others): a malformed flag is left out with a warning naming it, and every other
 * flag is served.
 */
export function parseFlagDefinitions(text: string, source: string): ParsedFlagDocument {
  const document = parseUfcDocument(text, source);
  const servable: [string, UfcFlag][] = [];
  const skipped: string[] = [];
  for (const [key, candidate] of Object.entries(document.flags)) {
    const problem = flagProblem(key, candidate);
    if (problem === undefined) servable.push([key, candidate as UfcFlag]);
    else skipped.push(`${source}: flag "${key}" skipped: ${problem}`);
  }
  // fromEntries defines own properties, so even a flag keyed "__proto__" stays a flag.
  return { source, configuration: { ...document, flags: Object.fromEntries(servable) }, skipped };
}

function parseUfcDocument(text: string, source: string): UfcDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new FlagConfigurationError(`${source}: not JSON (${String(err)})`);
  }
  if (!documentValidator.Check(json)) {
    const [first] = documentValidator.Errors(json);
    throw new FlagConfigurationError(
      `${source}: not a UFC configuration: ${first ? describeSchemaError(first, '(root)') : 'is invalid'}`,
    );
  }
  return json;
}

/** What makes one flag unservable (its first schema error, a key mismatch, structural mistakes). */
function flagProblem(key: string, candidate: unknown): string | undefined {
  if (!flagValidator.Check(candidate)) {
    const [first] = flagValidator.Errors(candidate);
    return first ? describeSchemaError(first, 'the flag') : 'is not a UFC flag';
  }
  if (candidate.key !== key) return `key "${candidate.key}" must equal its map key "${key}"`;
  const problems = structuralProblems(candidate);
  return problems.length > 0 ? problems.join('; ') : undefined;
}

interface SchemaError {
  instancePath: string;
  schemaPath: string;
  params: object;
  message: string;
}

/** `allocations must be array`, `variationType is required`, `variationType must be one of …`. */
function describeSchemaError(error: SchemaError, root: string): string {
  const parts = error.instancePath.split('/').filter(Boolean);
  const required = (error.params as { requiredProperties?: string[] }).requiredProperties;
  if (required?.length) {
    return required.map((name) => [...parts, name].join('.')).join(', ') + ' is required';
  }
  const where = parts.join('.') || root;
  if (parts.at(-1) === 'variationType' && error.schemaPath.includes('/anyOf/')) {
    return `${where} must be one of ${VARIATION_TYPES.join(', ')}`;
  }
  if (parts.at(-1) === 'value' && error.schemaPath.includes('/conditions/')) {
    return `${where} must be a string, a number, a boolean or a list of strings`;
  }
  return `${where} ${error.message}`;
}

/** Merges documents into one flag set; a flag key defined in two files is an error. */
export function mergeFlagDefinitions(documents: ParsedFlagDocument[]): FlagDefinitions {
  const bySource = new Map<string, string>();
  const flags: UfcFlag[] = [];
  for (const { source, configuration } of documents) {
    for (const flag of Object.values(configuration.flags)) {
      const earlier = bySource.get(flag.key);
      if (earlier) {
        throw new FlagConfigurationError(
          `Flag "${flag.key}" is defined in ${earlier} and in ${source}`,
        );
      }
      bySource.set(flag.key, source);
      flags.push(flag);
    }
  }
  const environment =
    documents.find((document) => document.configuration.environment)?.configuration.environment
      ?.name ?? 'default';
  return {
    environment,
    flags,
    sources: documents.map((document) => document.source),
    warnings: [
      ...documents.flatMap((document) => document.skipped),
      ...flags.flatMap(definitionWarnings),
    ],
  };
}

/**
 * How start-up reports a load: the files and what changed in the database, then each warning
 * (skipped malformed flags first) at warn level, so an operator sees which flags are not served.
 */
export function logFlagDefinitions(
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  definitions: FlagDefinitions,
  loaded: SyncResult,
): void {
  log.info({ sources: definitions.sources, ...loaded }, 'flag definitions loaded');
  for (const warning of definitions.warnings) log.warn(warning);
}

/** What about a flag makes the evaluator skip it or the service drop an assignment. */
export function definitionWarnings(flag: UfcFlag): string[] {
  const warnings: string[] = [];
  flag.allocations.forEach((allocation, index) => {
    if (!(allocation.rules ?? []).every(isRuleEvaluable)) {
      warnings.push(
        `${flag.key}: allocations.${index} ("${allocation.key}") has a rule @datadog/flagging-core ${FLAGGING_CORE_VERSION} cannot evaluate; the flag assigns nobody`,
      );
    }
    for (const split of allocation.splits) {
      if (!Object.hasOwn(flag.variations, split.variationKey)) {
        warnings.push(
          `${flag.key}: allocations.${index} ("${allocation.key}") splits to "${split.variationKey}", which is not a variation; subjects there fall through to the next allocation`,
        );
      }
    }
  });
  for (const variation of Object.values(flag.variations)) {
    if (!valueMatchesType(variation.value, flag.variationType)) {
      warnings.push(
        `${flag.key}: variation "${variation.key}" is not a ${flag.variationType}; subjects assigned to it get no assignment`,
      );
    }
  }
  return warnings;
}
