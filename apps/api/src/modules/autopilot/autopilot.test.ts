import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTOPILOT_PROFILES,
  planAutopilot,
  scenariosOnAfter,
  type AutopilotState,
} from '@showroom/contracts/autopilot';
import type { ChangeMarker, MarkerList } from '@showroom/contracts/markers';
import type { ScenarioList } from '@showroom/contracts/scenarios';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from '../flags/definitions.js';
import { createFlagsRepository } from '../flags/repository.js';
import { readScenarioCatalogue } from '../scenarios/catalogue.js';
import { createScenarioRepository } from '../scenarios/repository.js';
import { createAutopilotService } from './service.js';
import { autopilotCandidates } from '@showroom/contracts/scenario-link';

// The autopilot (docs/decisions/018-autopilot.md): a schedule from a profile and a seed, its
// state in SQL so a restarted api continues it and only one replica applies each step. The
// clock is injected and the ticker is off: the tests call tick() themselves, no waiting.
const T0 = Date.UTC(2026, 0, 20, 9);
let clock = T0;
const now = () => clock;
const SEED = 20_260_120;

let testDb: TestDatabase;
const apps: FastifyInstance[] = [];

const newApp = async (replicaId: string) => {
  const app = await buildApp({
    database: testDb.database,
    flags: { now },
    autopilot: { intervalMs: 0, replicaId },
  });
  await app.ready();
  apps.push(app);
  return app;
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  await createFlagsRepository(testDb.database.db, now).syncDefinitions(
    await readFlagDefinitions(DEFAULT_FLAGS_PATH),
  );
});

afterEach(async () => {
  // Each test starts from a stopped autopilot, later in time than the last one's markers.
  const app = apps.find((candidate) => !closed.has(candidate));
  if (app) {
    const state = await stateOf(app);
    if (state.status === 'running' || state.status === 'paused') {
      expect((await post(app, '/autopilot/stop')).statusCode).toBe(200);
    }
  }
  clock += 3_600_000;
});

afterAll(async () => {
  await Promise.all(apps.filter((app) => !closed.has(app)).map((app) => app.close()));
  await testDb.destroy();
});

const closed = new Set<FastifyInstance>();
const close = async (app: FastifyInstance) => {
  await app.close();
  closed.add(app);
};

const post = (app: FastifyInstance, url: string, payload?: unknown) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'x-operator': 'ada' },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const stateOf = async (app: FastifyInstance) => {
  const res = await app.inject({ method: 'GET', url: '/autopilot' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AutopilotState>();
};

const start = async (app: FastifyInstance, seed = SEED) => {
  const res = await post(app, '/autopilot/start', { profile: 'compressed', seed });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AutopilotState>();
};

/** The autopilot's markers since `since`, oldest first. */
const autopilotMarkers = async (app: FastifyInstance, since: number) => {
  const res = await app.inject({ method: 'GET', url: `/markers?since=${since}&limit=500` });
  return res
    .json<MarkerList>()
    .markers.filter((marker) => marker.kind === 'autopilot')
    .reverse();
};
const stepOf = (marker: ChangeMarker) => (marker.after as { step: number }).step;

const activeScenarios = async (app: FastifyInstance) =>
  (await app.inject({ method: 'GET', url: '/scenarios' }))
    .json<ScenarioList>()
    .active.map((run) => run.scenarioId)
    .sort();

describe('the autopilot', () => {
  it('is idle until started; start answers the schedule its profile and seed plan', async () => {
    const app = await newApp('one');
    const idle = await stateOf(app);
    expect(idle).toMatchObject({ status: 'idle', steps: [], on: [], nextAt: null });

    const started = await start(app);
    const catalogue = autopilotCandidates(
      (await app.inject({ method: 'GET', url: '/scenarios' })).json<ScenarioList>().scenarios,
    );
    const plan = planAutopilot(AUTOPILOT_PROFILES.compressed, SEED, catalogue);
    expect(plan).toHaveLength(6);
    expect(started).toMatchObject({
      status: 'running',
      profileName: 'compressed',
      seed: SEED,
      startedAt: clock,
      startedBy: 'ada',
      nextStep: 0,
      nextAt: clock + plan[0]!.offsetMs,
    });
    // Each planned step carries the plan's step (and when it is due, whether it is applied).
    expect(started.steps).toMatchObject(plan);
    expect(started.steps.every((step) => !step.applied)).toBe(true);
    // The same seed plans the same schedule again (after a stop and a new start).
    expect((await post(app, '/autopilot/stop')).statusCode).toBe(200);
    expect((await start(app)).steps.map((step) => step.turnOn)).toEqual(
      plan.map((step) => step.turnOn),
    );
    expect((await post(app, '/autopilot/stop')).statusCode).toBe(200);
    // Another seed, another schedule.
    expect((await start(app, SEED + 1)).steps.map((step) => step.turnOn)).not.toEqual(
      plan.map((step) => step.turnOn),
    );
  });

  it('refuses bad input naming the field, and controls that do not fit the state with 409', async () => {
    const app = apps[0]!;
    for (const [payload, field] of [
      [{ profile: 'wild' }, 'profile'],
      [{ profile: 'gentle', seed: -1 }, 'seed'],
      [{ profile: 'gentle', seed: 1.5 }, 'seed'],
      [{}, 'profile'],
    ] as const) {
      const res = await post(app, '/autopilot/start', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.field ?? res.json().error.message).toContain(field);
    }
    for (const url of ['/autopilot/pause', '/autopilot/resume', '/autopilot/stop']) {
      const res = await post(app, url);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().error.code).toBe('AUTOPILOT_STATE');
    }
    await start(app);
    expect((await post(app, '/autopilot/start', { profile: 'busy' })).statusCode).toBe(409);
    expect((await post(app, '/autopilot/resume')).statusCode).toBe(409);
    expect((await post(app, '/autopilot/pause')).statusCode).toBe(200);
    expect((await post(app, '/autopilot/pause')).statusCode).toBe(409);
    expect((await post(app, '/autopilot/start', { profile: 'busy' })).statusCode).toBe(409);
    expect((await post(app, '/autopilot/resume')).statusCode).toBe(200);
  });

  it('applies each step when due through the scenario service, with a marker per transition', async () => {
    const app = apps[0]!;
    const since = clock;
    const { steps } = await start(app);
    expect(await app.autopilot.tick()).toEqual([]);
    for (const step of steps) {
      clock = step.dueAt! - 1;
      expect(await app.autopilot.tick(), `before step ${step.index}`).toEqual([]);
      clock = step.dueAt!;
      expect(await app.autopilot.tick(), `step ${step.index}`).toEqual([step.index]);
      const on = scenariosOnAfter(steps, step.index + 1).sort();
      expect(await activeScenarios(app)).toEqual(on);
      expect((await stateOf(app)).on.sort()).toEqual(on);
    }
    const state = await stateOf(app);
    expect(state).toMatchObject({ status: 'finished', nextStep: steps.length, nextAt: null });
    expect(state.steps.every((step) => step.applied)).toBe(true);
    expect(await app.autopilot.tick()).toEqual([]);

    const markers = await autopilotMarkers(app, since);
    expect(markers.map((marker) => marker.action)).toEqual([
      'start',
      ...steps.map(() => 'step'),
      'finish',
    ]);
    const stepMarkers = markers.filter((marker) => marker.action === 'step');
    expect(stepMarkers.map(stepOf)).toEqual(steps.map((step) => step.index));
    expect(stepMarkers[0]!.after).toMatchObject({
      step: 0,
      of: steps.length,
      turnOn: steps[0]!.turnOn,
      turnOff: [],
    });
    expect(stepMarkers[0]!.flags.length).toBeGreaterThan(0);
    expect(stepMarkers.every((marker) => marker.operator === 'autopilot')).toBe(true);
    // The scenario starts and stops are the scenario service's own markers, by the autopilot.
    const res = await app.inject({ method: 'GET', url: `/markers?since=${since}&limit=500` });
    const scenarioMarkers = res
      .json<MarkerList>()
      .markers.filter((marker) => marker.kind === 'scenario' && marker.operator === 'autopilot');
    const transitions = steps.reduce((n, step) => n + step.turnOn.length + step.turnOff.length, 0);
    expect(scenarioMarkers).toHaveLength(transitions);
  });

  it('applies several overdue steps in order in one tick', async () => {
    const app = apps[0]!;
    const { steps } = await start(app);
    clock = steps[2]!.dueAt!;
    expect(await app.autopilot.tick()).toEqual([0, 1, 2]);
    expect(await activeScenarios(app)).toEqual(scenariosOnAfter(steps, 3).sort());
  });

  it('pause holds the schedule and resume moves it later by the pause; stop turns off what it turned on', async () => {
    const app = apps[0]!;
    const since = clock;
    const { steps } = await start(app);
    clock = steps[0]!.dueAt!;
    expect(await app.autopilot.tick()).toEqual([0]);
    expect(await activeScenarios(app)).toEqual([...steps[0]!.turnOn].sort());

    const paused = await post(app, '/autopilot/pause');
    expect(paused.json<AutopilotState>()).toMatchObject({ status: 'paused', nextAt: null });
    clock = steps[1]!.dueAt! + 10_000;
    expect(await app.autopilot.tick()).toEqual([]);
    // Faults on at the pause stay on.
    expect(await activeScenarios(app)).toEqual([...steps[0]!.turnOn].sort());

    const resumed = (await post(app, '/autopilot/resume')).json<AutopilotState>();
    const pausedFor = clock - steps[0]!.dueAt!;
    expect(resumed).toMatchObject({ status: 'running', pausedMs: pausedFor });
    expect(resumed.nextAt).toBe(steps[1]!.dueAt! + pausedFor);
    clock = resumed.nextAt! - 1;
    expect(await app.autopilot.tick()).toEqual([]);
    clock = resumed.nextAt!;
    expect(await app.autopilot.tick()).toEqual([1]);

    clock = resumed.steps[2]!.dueAt!;
    expect(await app.autopilot.tick()).toEqual([2]);
    expect(await activeScenarios(app)).toEqual([...steps[2]!.turnOn].sort());
    const stopped = await post(app, '/autopilot/stop');
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json<AutopilotState>()).toMatchObject({ status: 'idle', on: [] });
    expect(await activeScenarios(app)).toEqual([]);
    clock += 3_600_000;
    expect(await app.autopilot.tick()).toEqual([]);

    const markers = await autopilotMarkers(app, since);
    expect(markers.map((marker) => marker.action)).toEqual([
      'start',
      'step',
      'pause',
      'resume',
      'step',
      'step',
      'stop',
    ]);
    expect(markers.at(-1)!.before).toEqual({ on: steps[2]!.turnOn });
  });

  it('continues after a restart: a new api on the same database applies the next step, none twice', async () => {
    const first = await newApp('before-restart');
    const since = clock;
    const { steps } = await start(first);
    clock = steps[1]!.dueAt!;
    expect(await first.autopilot.tick()).toEqual([0, 1]);
    clock = steps[2]!.dueAt!;
    expect(await first.autopilot.tick()).toEqual([2]);
    await close(first);

    const restarted = await newApp('after-restart');
    const state = await stateOf(restarted);
    expect(state).toMatchObject({ status: 'running', nextStep: 3, seed: SEED });
    expect(await restarted.autopilot.tick()).toEqual([]);
    clock = steps[3]!.dueAt!;
    expect(await restarted.autopilot.tick()).toEqual([3]);
    clock = steps.at(-1)!.dueAt!;
    expect(await restarted.autopilot.tick()).toEqual([4, 5]);
    expect(await activeScenarios(restarted)).toEqual([]);

    const stepMarkers = (await autopilotMarkers(restarted, since)).filter(
      (marker) => marker.action === 'step',
    );
    expect(stepMarkers.map(stepOf)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await stateOf(restarted)).status).toBe('finished');
  });

  it('with two replicas ticking at once, each step is applied by one of them only', async () => {
    const a = apps.find((app) => !closed.has(app))!;
    const b = await newApp('replica-b');
    const since = clock;
    const { steps } = await start(a, SEED + 7);
    const appliedBy: number[][] = [];
    for (const step of steps) {
      clock = step.dueAt!;
      const [byA, byB] = await Promise.all([a.autopilot.tick(), b.autopilot.tick()]);
      expect([...byA, ...byB], `step ${step.index}`).toEqual([step.index]);
      appliedBy.push(byA.length > 0 ? [0] : [1]);
      expect(await activeScenarios(b)).toEqual(scenariosOnAfter(steps, step.index + 1).sort());
    }
    const markers = await autopilotMarkers(a, since);
    const stepMarkers = markers.filter((marker) => marker.action === 'step');
    expect(stepMarkers.map(stepOf)).toEqual(steps.map((step) => step.index));
    expect(markers.filter((marker) => marker.action === 'finish')).toHaveLength(1);
    // Each scenario start and stop happened once: no double starts from the other replica.
    const res = await a.inject({ method: 'GET', url: `/markers?since=${since}&limit=500` });
    const scenarioMarkers = res
      .json<MarkerList>()
      .markers.filter((marker) => marker.kind === 'scenario' && marker.operator === 'autopilot');
    const transitions = steps.reduce((n, step) => n + step.turnOn.length + step.turnOff.length, 0);
    expect(scenarioMarkers).toHaveLength(transitions);
    expect(appliedBy).toHaveLength(steps.length);
  });

  it('a replica does not take a step while another holds the lease on the one before', async () => {
    const a = apps.find((app) => !closed.has(app))!;
    const b = apps.filter((app) => !closed.has(app)).at(-1)!;
    expect(b).not.toBe(a);
    const { steps } = await start(a, SEED + 3);
    clock = steps[0]!.dueAt!;
    // Replica a claims step 0 and is still applying it (its lease held) when b looks at step 1.
    await testDb.database.db
      .updateTable('autopilot')
      .set({ next_step: 1, lease_owner: a.autopilot.replicaId, lease_until: clock + 30_000 })
      .execute();
    clock = steps[1]!.dueAt!;
    expect(await b.autopilot.tick()).toEqual([]);
    // The lease runs out (a died mid-step): b carries the schedule on.
    clock += 30_001;
    const due = steps.filter((step) => step.index >= 1 && step.dueAt! <= clock);
    expect(due[0]!.index).toBe(1);
    expect(await b.autopilot.tick()).toEqual(due.map((step) => step.index));
  });
});

describe('the autopilot service with a scenario service that misbehaves', () => {
  /** The service over the test database, its scenario calls recorded or made to fail. */
  const serviceWith = (scenarios: Parameters<typeof createAutopilotService>[0]['scenarios']) => {
    const catalogue = readScenarioCatalogue();
    return createAutopilotService({
      db: testDb.database.db,
      catalogue,
      scenarios,
      repository: createScenarioRepository(testDb.database.db),
      now,
      replicaId: 'service-test',
    });
  };

  it('goes on with the other scenarios of a step when one fails, and names it in the marker', async () => {
    const calls: string[] = [];
    const autopilot = serviceWith({
      start: async (id) => {
        calls.push(`start ${id}`);
        if (calls.length === 1) throw new Error(`Flag of "${id}" not found`);
        return { scenario: {} as never, run: null, link: '' };
      },
      stop: async (id) => {
        calls.push(`stop ${id}`);
        return null;
      },
    });
    const since = clock;
    const started = await autopilot.start('busy', SEED, 'ada');
    const first = started.steps.find((step) => step.turnOn.length >= 2)!;
    expect(first, 'a step turning two scenarios on').toBeDefined();
    clock = first.dueAt!;
    const applied = await autopilot.tick();
    expect(applied.at(-1)).toBe(first.index);
    const marker = (
      await autopilotMarkers(
        apps.find((app) => !closed.has(app))!,
        since,
      )
    ).find((candidate) => candidate.action === 'step' && stepOf(candidate) === first.index)!;
    const failedId = calls.find((call) => call.startsWith('start '))!.slice('start '.length);
    expect(marker.after).toMatchObject({
      failed: [{ scenario: failedId, error: `Flag of "${failedId}" not found` }],
    });
    for (const id of first.turnOn) expect(calls).toContain(`start ${id}`);
    await autopilot.stop('ada');
  });

  it('turns off what a step started when the autopilot was stopped while the step ran', async () => {
    const calls: string[] = [];
    let stopDuringStep = true;
    const autopilot = serviceWith({
      start: async (id) => {
        calls.push(`start ${id}`);
        if (stopDuringStep) {
          stopDuringStep = false;
          // Another request stops the autopilot while this replica applies the step.
          const state = await autopilot.stop('ada');
          expect(state.status).toBe('idle');
        }
        return { scenario: {} as never, run: null, link: '' };
      },
      stop: async (id) => {
        calls.push(`stop ${id}`);
        return null;
      },
    });
    const { steps } = await autopilot.start('compressed', SEED, 'ada');
    // Two scenarios: Stop comes between the first one's start and the second one's.
    expect(steps[0]!.turnOn).toHaveLength(2);
    clock = steps[0]!.dueAt!;
    expect(await autopilot.tick()).toEqual([0]);
    // Stop ran before the step had started all its scenarios; the step turned them off after.
    for (const id of steps[0]!.turnOn) {
      expect(calls.lastIndexOf(`stop ${id}`)).toBeGreaterThan(calls.lastIndexOf(`start ${id}`));
    }
    expect((await autopilot.state()).status).toBe('idle');
    clock = steps[1]!.dueAt!;
    expect(await autopilot.tick()).toEqual([]);
  });
});
