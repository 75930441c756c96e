import fs from 'node:fs/promises';
import path from 'node:path';
import { Compile } from 'typebox/compile';
import { REPO_ROOT } from '../../config.js';
import { FLAGGING_CORE_VERSION, isRuleEvaluable } from './flagging-core.js';
import {
  structuralProblems,
  UfcConfigurationSchema,
  valueMatchesType,
  type UfcConfiguration,
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
  /** Flags that load but will not assign as written (unknown operator, mistyped variation). */
  warnings: string[];
}

const configurationValidator = Compile(UfcConfigurationSchema);

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
    files.map(async (file) => ({
      source: file,
      configuration: parseFlagDefinitions(await fs.readFile(file, 'utf8'), file),
    })),
  );
  return mergeFlagDefinitions(parsed);
}

/** Parses and checks one UFC document; `source` names it in error messages. */
export function parseFlagDefinitions(text: string, source: string): UfcConfiguration {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new FlagConfigurationError(`${source}: not JSON (${String(err)})`);
  }
  if (!configurationValidator.Check(json)) {
    const [first] = configurationValidator.Errors(json);
    const where = first ? pathOf(first.instancePath, first.params) : '';
    throw new FlagConfigurationError(
      `${source}: not a UFC configuration: ${where || '(root)'} ${first?.message ?? 'is invalid'}`,
    );
  }
  for (const [key, flag] of Object.entries(json.flags)) {
    if (flag.key !== key) {
      throw new FlagConfigurationError(
        `${source}: flags.${key}.key must equal its map key "${key}"`,
      );
    }
    const problems = structuralProblems(flag);
    if (problems.length > 0) {
      throw new FlagConfigurationError(`${source}: flags.${key}.${problems.join('; ')}`);
    }
  }
  return json;
}

/** Merges documents into one flag set; a flag key defined twice is an error. */
export function mergeFlagDefinitions(
  documents: { source: string; configuration: UfcConfiguration }[],
): FlagDefinitions {
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
    warnings: flags.flatMap(definitionWarnings),
  };
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
      if (!(split.variationKey in flag.variations)) {
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

function pathOf(instancePath: string, params: object): string {
  const parts = instancePath.split('/').filter(Boolean);
  const required = (params as { requiredProperties?: string[] }).requiredProperties;
  if (required?.[0]) parts.push(required[0]);
  return parts.join('.');
}
