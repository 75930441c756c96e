import fs from 'node:fs';
import path from 'node:path';
import { Compile } from 'typebox/compile';
import { REPO_ROOT } from '../../config.js';
import {
  linkOf,
  ScenarioSchema,
  type Scenario,
  type ScenarioView,
} from '@showroom/contracts/scenarios';
import type { EventMatch, SignalRule } from '@showroom/contracts/scenario-signals';

/** The shop's own catalogue; SCENARIOS_PATH serves another file. */
export const DEFAULT_SCENARIOS_PATH = path.join(REPO_ROOT, 'data', 'scenarios.json');

const scenarioValidator = Compile(ScenarioSchema);

/** The scenarios one file holds, and why any were left out. */
export interface ScenarioCatalogue {
  source: string;
  scenarios: ScenarioView[];
  warnings: string[];
  find(id: string): ScenarioView | undefined;
  /**
   * Leaves out, with a warning naming each, the scenarios `problemOf` finds a reason against
   * (the api: a flag the service does not serve, a change the flag refuses).
   */
  keepServable(problemOf: (scenario: ScenarioView) => string | undefined): void;
}

/**
 * Reads a catalogue file (docs/decisions/011-scenario-catalogue.md). Each scenario is checked on
 * its own: one that is malformed, repeats an id or holds a regular expression that does not
 * compile is left out with a warning naming it, and the others are served. A file that cannot be
 * read or is not `{"scenarios": [...]}` gives an empty catalogue with a warning: scenarios are a
 * presenter's tool, never a reason for the shop not to start.
 */
export function readScenarioCatalogue(file: string = DEFAULT_SCENARIOS_PATH): ScenarioCatalogue {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return catalogueOf(file, [], [`${file}: cannot be read (${String(err)}); no scenarios`]);
  }
  return parseScenarioCatalogue(text, file);
}

export function parseScenarioCatalogue(text: string, source: string): ScenarioCatalogue {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return catalogueOf(source, [], [`${source}: not JSON (${String(err)}); no scenarios`]);
  }
  const list = (json as { scenarios?: unknown } | null)?.scenarios;
  if (!Array.isArray(list)) {
    return catalogueOf(source, [], [`${source}: has no "scenarios" array; no scenarios`]);
  }
  const warnings: string[] = [];
  const scenarios: Scenario[] = [];
  const seen = new Set<string>();
  list.forEach((candidate: unknown, index) => {
    const name = describeEntry(candidate, index);
    const problem = scenarioProblem(candidate);
    if (problem) {
      warnings.push(`${source}: scenario ${name} skipped: ${problem}`);
      return;
    }
    const scenario = candidate as Scenario;
    if (seen.has(scenario.id)) {
      warnings.push(`${source}: scenario ${name} skipped: its id repeats an earlier one`);
      return;
    }
    seen.add(scenario.id);
    scenarios.push(scenario);
  });
  return catalogueOf(source, scenarios, warnings);
}

function catalogueOf(source: string, list: Scenario[], warnings: string[]): ScenarioCatalogue {
  let scenarios: ScenarioView[] = list.map((scenario) => ({ ...scenario, link: linkOf(scenario) }));
  return {
    source,
    warnings,
    get scenarios() {
      return scenarios;
    },
    find: (id) => scenarios.find((scenario) => scenario.id === id),
    keepServable(problemOf) {
      scenarios = scenarios.filter((scenario) => {
        const problem = problemOf(scenario);
        if (problem !== undefined) {
          warnings.push(`${source}: scenario "${scenario.id}" skipped: ${problem}`);
        }
        return problem === undefined;
      });
    },
  };
}

function describeEntry(candidate: unknown, index: number): string {
  const id = (candidate as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? `"${id}" (scenarios.${index})` : `scenarios.${index}`;
}

/** Why a catalogue entry cannot be served, or undefined when it can. */
function scenarioProblem(candidate: unknown): string | undefined {
  if (!scenarioValidator.Check(candidate)) {
    const [first] = scenarioValidator.Errors(candidate);
    if (!first) return 'is invalid';
    const where = first.instancePath.split('/').filter(Boolean).join('.') || '(entry)';
    const required = (first.params as { requiredProperties?: string[] }).requiredProperties;
    return required?.length ? `${where} needs ${required.join(', ')}` : `${where} ${first.message}`;
  }
  const scenario = candidate as Scenario;
  for (const [where, source] of regexSources(scenario.signal.rule)) {
    try {
      new RegExp(source);
    } catch (err) {
      return `signal.rule.${where} is not a regular expression (${(err as Error).message})`;
    }
  }
  for (const [index, change] of scenario.flagChanges.entries()) {
    if (
      change.enabled === undefined &&
      change.rolloutPercentage === undefined &&
      change.rules === undefined &&
      change.variation === undefined
    ) {
      return `flagChanges.${index} changes nothing (give enabled, rolloutPercentage, rules or variation)`;
    }
    if (change.rolloutPercentage !== undefined && change.allocation === undefined) {
      return `flagChanges.${index}.allocation is required with rolloutPercentage`;
    }
    if (change.rules !== undefined && change.allocation === undefined) {
      return `flagChanges.${index}.allocation is required with rules`;
    }
    if (change.variation !== undefined && change.allocation === undefined) {
      return `flagChanges.${index}.allocation is required with variation`;
    }
  }
  const steps = scenario.rollout?.steps ?? [];
  if (steps.some((step, i) => i > 0 && step <= steps[i - 1]!)) {
    return 'rollout.steps must rise strictly';
  }
  return undefined;
}

function regexSources(rule: SignalRule): [string, string][] {
  const ofMatch = (match: EventMatch, where: string): [string, string][] =>
    (['message', 'url', 'path'] as const).flatMap((field) => {
      const source = match[field];
      return source === undefined ? [] : [[`${where}.${field}`, source] as [string, string]];
    });
  switch (rule.kind) {
    case 'sessions-with':
      return ofMatch(rule.match, 'match');
    case 'view-percentile':
      return [['path', rule.path]];
    case 'ratio':
      return [
        ...ofMatch(rule.numerator, 'numerator'),
        ...rule.denominator.flatMap((match, index) => ofMatch(match, `denominator.${index}`)),
      ];
  }
}
