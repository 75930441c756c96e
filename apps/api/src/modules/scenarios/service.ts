import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import {
  allocationRolloutPercentage,
  setAllocationRollout,
  setAllocationRules,
  setAllocationVariation,
  setFlagEnabled,
  type FlagChange,
} from '../flags/operations.js';
import type { UfcFlag } from '../flags/ufc.js';
import type { FlagsRepository } from '../flags/repository.js';
import type { GuardService } from '../flags/guard-service.js';
import type { AutopilotService } from '../autopilot/service.js';
import { MINUTE_MS } from '@showroom/contracts/autopilot';
import { GUARD_CHECK_EVERY_MIN_MS, type GuardBody } from '@showroom/contracts/guards';
import { changesFlagService } from '@showroom/contracts/scenario-link';
import type { ChangeMarker } from '@showroom/contracts/markers';
import { formatMeasure, measureSignal } from '@showroom/contracts/scenario-signals';
import type {
  ScenarioFlagChange,
  ScenarioProofList,
  ScenarioRollout,
  ScenarioRun,
  ScenarioStartResult,
  ScenarioView,
} from '@showroom/contracts/scenarios';
import { scenarioAutopilotName } from '@showroom/contracts/scenarios';
import type { ScenarioCatalogue } from './catalogue.js';
import type { FlagRestore, ScenarioRepository } from './repository.js';
import { loadScenarioSessions } from './signals.js';

export type ScenarioService = ReturnType<typeof createScenarioService>;

/** Operator names in the flag audit: whose change it was, through which scenario. */
const auditOperator = (scenarioId: string, operator: string) =>
  `${operator} (scenario ${scenarioId})`;

/** Whether a flag audit entry was made by a scenario (its own marker tells the change). */
export const madeByScenario = (auditedOperator: string) =>
  /\(scenario [a-z0-9-]+\)$/.test(auditedOperator);

/** A scenario's rollout as the guard it puts, its minutes made milliseconds. */
function rolloutGuard(rollout: ScenarioRollout, minuteMs: number): GuardBody {
  const { flag: _flag, holdMinutes, checkEveryMinutes, ...guard } = rollout;
  return {
    ...guard,
    holdMs: Math.round(holdMinutes * minuteMs),
    checkEveryMs: Math.max(GUARD_CHECK_EVERY_MIN_MS, Math.round(checkEveryMinutes * minuteMs)),
  };
}

/**
 * The operations one flag change of a scenario makes, in the order they are made: its variation,
 * rules, rollout, then on or off. Each validates against the flag as it stands and throws why
 * it cannot be made (an allocation or variation the flag lacks, a rule it cannot evaluate).
 */
function flagChangeSteps(
  change: FlagRestore | ScenarioFlagChange,
): ((flag: UfcFlag) => FlagChange | null)[] {
  const steps: ((flag: UfcFlag) => FlagChange | null)[] = [];
  const { allocation } = change;
  if (allocation !== undefined) {
    const { variation, rules, rolloutPercentage } = change;
    if (variation !== undefined)
      steps.push((flag) => setAllocationVariation(flag, allocation, variation));
    if (rules !== undefined) steps.push((flag) => setAllocationRules(flag, allocation, rules));
    if (rolloutPercentage !== undefined)
      steps.push((flag) => setAllocationRollout(flag, allocation, rolloutPercentage));
  }
  const { enabled } = change;
  if (enabled !== undefined) steps.push((flag) => setFlagEnabled(flag, enabled));
  return steps;
}

/**
 * Why a scenario cannot be started against these flags, or undefined when it can: a flag it
 * changes or rolls out that the service does not serve, or a change the flag refuses (made on
 * a copy, as start would make it). The catalogue leaves such a scenario out at start-up with a
 * warning naming it (docs/decisions/011-scenario-catalogue.md).
 */
export function scenarioFlagProblem(
  scenario: ScenarioView,
  served: ReadonlyMap<string, UfcFlag>,
): string | undefined {
  const unknown = [
    ...scenario.flagChanges.map((change) => change.flag),
    ...(scenario.rollout ? [scenario.rollout.flag] : []),
  ].find((key) => !served.has(key));
  if (unknown !== undefined) {
    return `it changes flag "${unknown}", which the flag service does not serve`;
  }
  const changed = new Map<string, UfcFlag>();
  for (const [index, change] of scenario.flagChanges.entries()) {
    let flag = changed.get(change.flag) ?? served.get(change.flag)!;
    try {
      for (const step of flagChangeSteps(change)) flag = step(flag)?.flag ?? flag;
    } catch (err) {
      return `flagChanges.${index} cannot be made to flag "${change.flag}": ${(err as Error).message}`;
    }
    changed.set(change.flag, flag);
  }
  return undefined;
}

/**
 * Starting and stopping scenarios, and their proofs (docs/decisions/011-scenario-catalogue.md).
 * A scenario made of query switches changes only the browser that opens its link; one with flag
 * changes changes the flag service for every shopper it targets, so it runs until stopped: its
 * run remembers each flag's state before, and stopping puts that back. Both ends are markers.
 */
export function createScenarioService(options: {
  db: Kysely<Database>;
  catalogue: ScenarioCatalogue;
  flags: FlagsRepository;
  repository: ScenarioRepository;
  now: () => number;
  /** Puts and removes the guard of a scenario's rollout (decision 019). */
  guards?: Pick<GuardService, 'put' | 'remove'>;
  /** The autopilot a scenario's schedule runs on (decision 018; created after this service). */
  autopilot?: () => Pick<AutopilotService, 'state' | 'startPlan' | 'stop'>;
}) {
  const { db, catalogue, flags, repository, now } = options;
  const guards = () => {
    if (!options.guards) throw new Error('scenario service: no guard service given');
    return options.guards;
  };
  const autopilot = () => {
    if (!options.autopilot) throw new Error('scenario service: no autopilot given');
    return options.autopilot();
  };

  const scenarioOf = (id: string): ScenarioView => {
    const scenario = catalogue.find(id);
    if (!scenario) throw notFound(`Scenario "${id}" not found`);
    return scenario;
  };

  /** The flag's state a change would alter, to put back later. */
  const restoreOf = async (change: ScenarioFlagChange): Promise<FlagRestore> => {
    const stored = await flags.findFlag(change.flag);
    if (!stored) throw notFound(`Flag "${change.flag}" not found`);
    const restore: FlagRestore = { flag: change.flag, enabled: stored.flag.enabled };
    if (change.allocation !== undefined) {
      const allocation = stored.flag.allocations.find((a) => a.key === change.allocation);
      if (allocation) {
        restore.allocation = allocation.key;
        restore.rolloutPercentage = allocationRolloutPercentage(allocation);
        if (change.rules !== undefined) restore.rules = allocation.rules ?? [];
        const served = allocation.splits[0]?.variationKey;
        if (change.variation !== undefined && served !== undefined) restore.variation = served;
      }
    }
    return restore;
  };

  const apply = async (change: FlagRestore | ScenarioFlagChange, operator: string) => {
    for (const step of flagChangeSteps(change)) await flags.changeFlag(change.flag, operator, step);
  };

  return {
    list(): { scenarios: ScenarioView[] } {
      return { scenarios: catalogue.scenarios };
    },

    activeRuns: (): Promise<ScenarioRun[]> => repository.activeRuns(),

    /**
     * Starts a scenario: its flag changes, then its guarded rollout (the guard sets the first
     * step) and its autopilot schedule, with `minuteMs` for each of its minutes. A part that
     * cannot start undoes the others (docs/decisions/020-guarded-rollout-scenario.md).
     */
    async start(id: string, operator: string, minuteMs = MINUTE_MS): Promise<ScenarioStartResult> {
      const scenario = scenarioOf(id);
      if (!changesFlagService(scenario)) return { scenario, run: null, link: scenario.link };
      const active = await repository.activeRun(id);
      if (active) return { scenario, run: active.run, link: scenario.link };
      if (scenario.autopilot) {
        const state = await autopilot().state();
        if (state.status === 'running' || state.status === 'paused') {
          throw conflict(
            'AUTOPILOT_STATE',
            `The autopilot is ${state.status}: stop it before starting scenario "${id}"`,
          );
        }
      }
      const { rollout } = scenario;
      const changed = [
        ...scenario.flagChanges,
        ...(rollout ? [{ flag: rollout.flag, allocation: rollout.allocation }] : []),
      ];
      const restore = await Promise.all(changed.map(restoreOf));
      for (const change of scenario.flagChanges) await apply(change, auditOperator(id, operator));
      const at = now();
      const run = await repository.startRun(id, operator, at, restore);
      await repository.addMarker({
        kind: 'scenario',
        subject: id,
        action: 'start',
        operator,
        at,
        before: restore,
        after: scenario.flagChanges,
        flags: [...new Set(changed.map((change) => change.flag))],
      });
      try {
        if (rollout) {
          await guards().put(
            rollout.flag,
            rolloutGuard(rollout, minuteMs),
            auditOperator(id, operator),
          );
        }
        if (scenario.autopilot) {
          const { profile, seed } = scenario.autopilot;
          await autopilot().startPlan(
            scenarioAutopilotName(id),
            { ...profile, minuteMs },
            seed,
            auditOperator(id, operator),
          );
        }
      } catch (err) {
        await this.stop(id, operator);
        throw err;
      }
      return { scenario, run, link: scenario.link };
    },

    /** Stops a scenario: its autopilot schedule, its guard, then its flags as they were. */
    async stop(id: string, operator: string): Promise<ScenarioRun | null> {
      const scenario = scenarioOf(id);
      const active = await repository.activeRun(id);
      if (!active) return null;
      if (scenario.autopilot) {
        const state = await autopilot().state();
        const ours = state.profileName === scenarioAutopilotName(id);
        if (ours && (state.status === 'running' || state.status === 'paused')) {
          await autopilot().stop(auditOperator(id, operator));
        }
      }
      if (scenario.rollout) await guards().remove(scenario.rollout.flag);
      for (const restore of [...active.restore].reverse()) {
        await apply(restore, auditOperator(id, operator));
      }
      const at = now();
      const run = await repository.stopRun(active.run.id, operator, at);
      await repository.addMarker({
        kind: 'scenario',
        subject: id,
        action: 'stop',
        operator,
        at,
        before: null,
        after: active.restore,
        flags: [...new Set(active.restore.map((restore) => restore.flag))],
      });
      return run;
    },

    /** Each scenario's signal over the latest `sessions` sessions its link opened. */
    async proofs(sessions: number): Promise<ScenarioProofList> {
      const proofs = await Promise.all(
        catalogue.scenarios.map(async (scenario) => {
          const tagged = await loadScenarioSessions(db, scenario.id, sessions);
          const measure = measureSignal(scenario.signal.rule, tagged);
          return {
            scenarioId: scenario.id,
            title: scenario.title,
            rule: scenario.signal.description,
            sessions: tagged.length,
            measured: measure.measured,
            measuredText: formatMeasure(scenario.signal.rule, measure.measured),
            basis: measure.basis,
            status: measure.holds ? ('proven' as const) : ('not seen' as const),
          };
        }),
      );
      return { sessions, proofs };
    },

    /** Records a new build (once per build id: the same build starting again is no change). */
    async recordBuild(buildId: string, operator: string): Promise<ChangeMarker | null> {
      const previous = await repository.latestMarker('build');
      if (previous?.subject === buildId) return null;
      return repository.addMarker({
        kind: 'build',
        subject: buildId,
        action: 'deploy',
        operator,
        at: now(),
        before: previous?.subject ?? null,
        after: buildId,
        flags: [],
      });
    },
  };
}
