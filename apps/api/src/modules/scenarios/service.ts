import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import {
  allocationRolloutPercentage,
  setAllocationRollout,
  setFlagEnabled,
} from '../flags/operations.js';
import type { FlagsRepository } from '../flags/repository.js';
import type { ChangeMarker } from '@showroom/contracts/markers';
import { formatMeasure, measureSignal } from '@showroom/contracts/scenario-signals';
import type {
  ScenarioFlagChange,
  ScenarioProofList,
  ScenarioRun,
  ScenarioStartResult,
  ScenarioView,
} from '@showroom/contracts/scenarios';
import type { ScenarioCatalogue } from './catalogue.js';
import type { FlagRestore, ScenarioRepository } from './repository.js';
import { loadScenarioSessions } from './signals.js';

export type ScenarioService = ReturnType<typeof createScenarioService>;

/** Operator names in the flag audit: whose change it was, through which scenario. */
const auditOperator = (scenarioId: string, operator: string) =>
  `${operator} (scenario ${scenarioId})`;

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
}) {
  const { db, catalogue, flags, repository, now } = options;

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
      }
    }
    return restore;
  };

  const apply = async (change: FlagRestore | ScenarioFlagChange, operator: string) => {
    if (change.rolloutPercentage !== undefined && change.allocation !== undefined) {
      const { allocation, rolloutPercentage } = change;
      await flags.changeFlag(change.flag, operator, (flag) =>
        setAllocationRollout(flag, allocation, rolloutPercentage),
      );
    }
    if (change.enabled !== undefined) {
      const enabled = change.enabled;
      await flags.changeFlag(change.flag, operator, (flag) => setFlagEnabled(flag, enabled));
    }
  };

  return {
    list(): { scenarios: ScenarioView[] } {
      return { scenarios: catalogue.scenarios };
    },

    activeRuns: (): Promise<ScenarioRun[]> => repository.activeRuns(),

    async start(id: string, operator: string): Promise<ScenarioStartResult> {
      const scenario = scenarioOf(id);
      if (scenario.flagChanges.length === 0) return { scenario, run: null, link: scenario.link };
      const active = await repository.activeRun(id);
      if (active) return { scenario, run: active.run, link: scenario.link };
      const restore = await Promise.all(scenario.flagChanges.map(restoreOf));
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
        flags: scenario.flagChanges.map((change) => change.flag),
      });
      return { scenario, run, link: scenario.link };
    },

    async stop(id: string, operator: string): Promise<ScenarioRun | null> {
      scenarioOf(id);
      const active = await repository.activeRun(id);
      if (!active) return null;
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
        flags: active.restore.map((restore) => restore.flag),
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
