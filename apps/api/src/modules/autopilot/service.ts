import { randomInt, randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { AutopilotTable, Database } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';
import {
  AUTOPILOT_OPERATOR,
  AUTOPILOT_PROFILES,
  AUTOPILOT_SEED_MAX,
  planAutopilot,
  scenariosOnAfter,
  type AutopilotProfile,
  type AutopilotProfileName,
  type AutopilotState,
  type AutopilotStatus,
  type AutopilotStep,
} from '@showroom/contracts/autopilot';
import { autopilotCandidates } from '@showroom/contracts/scenario-link';
import type { ScenarioCatalogue } from '../scenarios/catalogue.js';
import type { ScenarioRepository } from '../scenarios/repository.js';
import type { ScenarioService } from '../scenarios/service.js';

export type AutopilotService = ReturnType<typeof createAutopilotService>;

const STATE_ID = 'default';

/**
 * How long a replica's claim on a step holds: long enough to start or stop a few scenarios;
 * a replica that dies mid-step holds the schedule up no longer than this.
 */
export const AUTOPILOT_LEASE_MS = 30_000;

/** The stored row, read: numbers as numbers, the profile parsed. */
interface Stored {
  status: AutopilotStatus;
  run: number;
  profileName: string | null;
  profile: AutopilotProfile | null;
  seed: number | null;
  startedAt: number | null;
  startedBy: string | null;
  pausedAt: number | null;
  pausedMs: number;
  nextStep: number;
}

const IDLE: Stored = {
  status: 'idle',
  run: 0,
  profileName: null,
  profile: null,
  seed: null,
  startedAt: null,
  startedBy: null,
  pausedAt: null,
  pausedMs: 0,
  nextStep: 0,
};

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

function toStored(row: Selectable<AutopilotTable> | undefined): Stored {
  if (!row) return IDLE;
  return {
    status: row.status as AutopilotStatus,
    run: Number(row.run),
    profileName: row.profile_name,
    profile: row.profile === null ? null : (JSON.parse(row.profile) as AutopilotProfile),
    seed: numberOrNull(row.seed),
    startedAt: numberOrNull(row.started_at),
    startedBy: row.started_by,
    pausedAt: numberOrNull(row.paused_at),
    pausedMs: Number(row.paused_ms),
    nextStep: Number(row.next_step),
  };
}

/**
 * The autopilot (docs/decisions/018-autopilot.md): starts, pauses, resumes and stops a schedule
 * kept in SQL, and `tick()` applies the steps that are due through the scenario service, one
 * replica per step. Every transition is an `autopilot` change marker.
 */
export function createAutopilotService(options: {
  db: Kysely<Database>;
  catalogue: ScenarioCatalogue;
  /** Starts and stops scenarios (the scenario service; decision 011). */
  scenarios: Pick<ScenarioService, 'start' | 'stop'>;
  repository: ScenarioRepository;
  now: () => number;
  /** This replica's name in the lease; default: a random one per app. */
  replicaId?: string;
}) {
  const { db, catalogue, scenarios, repository, now } = options;
  const replicaId = options.replicaId ?? randomUUID();

  const read = async (): Promise<Stored> =>
    toStored(
      await db.selectFrom('autopilot').selectAll().where('id', '=', STATE_ID).executeTakeFirst(),
    );

  /** The catalogue's scenarios a fault period can turn on. */
  const availableIds = () => autopilotCandidates(catalogue.scenarios);

  const planOf = (state: Stored): AutopilotStep[] =>
    state.profile === null || state.seed === null
      ? []
      : planAutopilot(state.profile, state.seed, availableIds());

  /** Running time since the start: wall time less the time spent paused. */
  const elapsed = (state: Stored, at: number) =>
    state.startedAt === null ? 0 : (state.pausedAt ?? at) - state.startedAt - state.pausedMs;

  const flagsOf = (ids: readonly string[]) => [
    ...new Set(
      ids.flatMap((id) => catalogue.find(id)?.flagChanges.map((change) => change.flag) ?? []),
    ),
  ];

  const mark = (
    state: Stored,
    action: string,
    operator: string,
    at: number,
    before: unknown,
    after: unknown,
    scenarioIds: readonly string[] = [],
  ) =>
    repository.addMarker({
      kind: 'autopilot',
      subject: state.profileName ?? 'autopilot',
      action,
      operator,
      at,
      before,
      after,
      flags: flagsOf(scenarioIds),
    });

  const view = (state: Stored, at: number): AutopilotState => {
    const steps = planOf(state);
    const base = (state.startedAt ?? 0) + state.pausedMs;
    const active = state.status === 'running' || state.status === 'paused';
    const next = steps[state.nextStep];
    return {
      status: state.status,
      profileName: state.profileName,
      profile: state.profile,
      seed: state.seed,
      startedAt: state.startedAt,
      startedBy: state.startedBy,
      pausedAt: state.pausedAt,
      pausedMs: state.pausedMs + (state.pausedAt === null ? 0 : at - state.pausedAt),
      nextStep: state.nextStep,
      nextAt: state.status === 'running' && next ? base + next.offsetMs : null,
      on: active ? scenariosOnAfter(steps, state.nextStep) : [],
      steps: steps.map((step) => {
        const applied = step.index < state.nextStep;
        return {
          ...step,
          applied,
          dueAt: state.status === 'paused' && !applied ? null : base + step.offsetMs,
        };
      }),
    };
  };

  const notIn = (status: AutopilotStatus, wanted: string) =>
    conflict('AUTOPILOT_STATE', `The autopilot is ${status}: ${wanted}`);

  /** Applies step `index` of `state`'s schedule when this replica wins the claim on it. */
  const claim = async (state: Stored, index: number, at: number): Promise<boolean> => {
    const result = await db
      .updateTable('autopilot')
      .set({
        next_step: index + 1,
        lease_owner: replicaId,
        lease_until: at + AUTOPILOT_LEASE_MS,
        updated_at: at,
      })
      .where('id', '=', STATE_ID)
      .where('run', '=', state.run)
      .where('status', '=', 'running')
      .where('next_step', '=', index)
      .where((eb) =>
        eb.or([
          eb('lease_until', 'is', null),
          eb('lease_until', '<', at),
          eb('lease_owner', '=', replicaId),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  };

  const release = () =>
    db
      .updateTable('autopilot')
      .set({ lease_owner: null, lease_until: null })
      .where('id', '=', STATE_ID)
      .where('lease_owner', '=', replicaId)
      .execute();

  return {
    replicaId,

    async state(): Promise<AutopilotState> {
      return view(await read(), now());
    },

    /** Starts a shipped profile's schedule (a random seed unless given). */
    start(
      profileName: AutopilotProfileName,
      seed: number | undefined,
      operator: string,
    ): Promise<AutopilotState> {
      return this.startPlan(profileName, AUTOPILOT_PROFILES[profileName], seed, operator);
    },

    /**
     * Starts the schedule of any profile under a name: a shipped one, or a scenario's own
     * (docs/decisions/020-guarded-rollout-scenario.md). 409 while one runs or is paused.
     */
    async startPlan(
      profileName: string,
      profile: AutopilotProfile,
      seed: number | undefined,
      operator: string,
    ): Promise<AutopilotState> {
      const chosenSeed = seed ?? randomInt(0, AUTOPILOT_SEED_MAX);
      const at = now();
      // The row exists from the first start on; the UPDATE below is the start itself, taken by
      // one request only when two replicas are asked at once.
      await db
        .insertInto('autopilot')
        .values({
          id: STATE_ID,
          status: 'idle',
          run: 0,
          paused_ms: 0,
          next_step: 0,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      const before = await read();
      const result = await db
        .updateTable('autopilot')
        .set({
          status: 'running',
          run: before.run + 1,
          profile_name: profileName,
          profile: JSON.stringify(profile),
          seed: chosenSeed,
          started_at: at,
          started_by: operator,
          paused_at: null,
          paused_ms: 0,
          next_step: 0,
          lease_owner: null,
          lease_until: null,
          updated_at: at,
        })
        .where('id', '=', STATE_ID)
        .where('run', '=', before.run)
        .where('status', 'not in', ['running', 'paused'])
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        throw notIn((await read()).status, 'stop it before starting another schedule');
      }
      const state = await read();
      const steps = planOf(state);
      await mark(state, 'start', operator, at, null, {
        profile: profileName,
        seed: chosenSeed,
        steps: steps.length,
      });
      return view(state, at);
    },

    async pause(operator: string): Promise<AutopilotState> {
      const at = now();
      const result = await db
        .updateTable('autopilot')
        .set({ status: 'paused', paused_at: at, updated_at: at })
        .where('id', '=', STATE_ID)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        throw notIn((await read()).status, 'only a running autopilot can pause');
      }
      const state = await read();
      await mark(state, 'pause', operator, at, null, { nextStep: state.nextStep });
      return view(state, at);
    },

    async resume(operator: string): Promise<AutopilotState> {
      const at = now();
      const before = await read();
      if (before.status !== 'paused' || before.pausedAt === null) {
        throw notIn(before.status, 'only a paused autopilot can resume');
      }
      const result = await db
        .updateTable('autopilot')
        .set({
          status: 'running',
          paused_at: null,
          paused_ms: before.pausedMs + Math.max(0, at - before.pausedAt),
          updated_at: at,
        })
        .where('id', '=', STATE_ID)
        .where('run', '=', before.run)
        .where('status', '=', 'paused')
        .where('paused_at', '=', before.pausedAt)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        throw notIn((await read()).status, 'only a paused autopilot can resume');
      }
      const state = await read();
      await mark(state, 'resume', operator, at, null, {
        nextStep: state.nextStep,
        pausedMs: at - before.pausedAt,
      });
      return view(state, at);
    },

    /** Stops the schedule and turns off the scenarios it has on. */
    async stop(operator: string): Promise<AutopilotState> {
      const at = now();
      const before = await read();
      if (before.status !== 'running' && before.status !== 'paused') {
        throw notIn(before.status, 'nothing to stop');
      }
      const result = await db
        .updateTable('autopilot')
        .set({ status: 'idle', paused_at: null, updated_at: at })
        .where('id', '=', STATE_ID)
        .where('run', '=', before.run)
        .where('status', 'in', ['running', 'paused'])
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        throw notIn((await read()).status, 'nothing to stop');
      }
      const on = scenariosOnAfter(planOf(before), before.nextStep);
      const failed: { scenario: string; error: string }[] = [];
      for (const id of on) {
        try {
          await scenarios.stop(id, AUTOPILOT_OPERATOR);
        } catch (err) {
          failed.push({ scenario: id, error: (err as Error).message });
        }
      }
      const state = await read();
      await mark(
        state,
        'stop',
        operator,
        at,
        { on },
        { nextStep: before.nextStep, ...(failed.length > 0 ? { failed } : {}) },
        on,
      );
      return view(state, at);
    },

    /**
     * Applies every step that is due, in order. Each step is claimed first (the conditional
     * UPDATE in `claim`); a replica that loses a claim leaves the rest to the winner, so steps
     * are never applied twice nor out of order (docs/decisions/018-autopilot.md). Answers the
     * indexes of the steps this replica applied.
     */
    async tick(): Promise<number[]> {
      const applied: number[] = [];
      for (;;) {
        const state = await read();
        if (state.status !== 'running') return applied;
        const steps = planOf(state);
        const step = steps[state.nextStep];
        const at = now();
        if (!step || step.offsetMs > elapsed(state, at)) return applied;
        if (!(await claim(state, step.index, at))) return applied;
        try {
          // One scenario that cannot start or stop (its flag gone) does not hold up the others:
          // the step's marker names it.
          const failed: { scenario: string; error: string }[] = [];
          const each = async (ids: string[], action: (id: string) => Promise<unknown>) => {
            for (const id of ids) {
              try {
                await action(id);
              } catch (err) {
                failed.push({ scenario: id, error: (err as Error).message });
              }
            }
          };
          await each(step.turnOff, (id) => scenarios.stop(id, AUTOPILOT_OPERATOR));
          await each(step.turnOn, (id) => scenarios.start(id, AUTOPILOT_OPERATOR));
          // Stopped while this step was applied: Stop turned off what it read as on, which may
          // not have held this step's scenarios yet; turn them off, as Stop promised.
          const after = await read();
          const stopped = after.run !== state.run || after.status === 'idle';
          if (stopped) await each(step.turnOn, (id) => scenarios.stop(id, AUTOPILOT_OPERATOR));
          await mark(
            state,
            'step',
            AUTOPILOT_OPERATOR,
            now(),
            { step: step.index, on: scenariosOnAfter(steps, step.index) },
            {
              step: step.index,
              of: steps.length,
              turnOn: step.turnOn,
              turnOff: step.turnOff,
              on: stopped ? [] : scenariosOnAfter(steps, step.index + 1),
              ...(failed.length > 0 ? { failed } : {}),
              ...(stopped ? { stopped: true } : {}),
            },
            [...step.turnOn, ...step.turnOff],
          );
          applied.push(step.index);
          if (step.index === steps.length - 1) {
            const done = await db
              .updateTable('autopilot')
              .set({ status: 'finished', updated_at: now() })
              .where('id', '=', STATE_ID)
              .where('run', '=', state.run)
              .where('status', '=', 'running')
              .executeTakeFirst();
            if (Number(done.numUpdatedRows) === 1) {
              await mark(state, 'finish', AUTOPILOT_OPERATOR, now(), null, {
                steps: steps.length,
              });
            }
          }
        } finally {
          await release();
        }
      }
    },
  };
}
