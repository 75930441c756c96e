import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AUTOPILOT_PROFILES,
  planAutopilot,
  type AutopilotState,
} from '@showroom/contracts/autopilot';
import type { ChangeMarker, MarkerList } from '@showroom/contracts/markers';
import type { ScenarioList } from '@showroom/contracts/scenarios';
import { freePort, killAll, startApiProcess, type ApiProcess } from '../../test/api-process.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { autopilotCandidates } from '@showroom/contracts/scenario-link';

/**
 * The autopilot survives a real crash (docs/decisions/018-autopilot.md, "Consequences": a
 * restarted api continues the schedule at the stored next step). The api runs as a child
 * process on the test database — SQLite, or PostgreSQL when TEST_DATABASE_URL is set — with its
 * real one-second ticker and wall clock; the schedule is started over HTTP, the process is
 * SIGKILLed between two steps, and a new process on the same database carries the schedule on.
 * Judged from the stored autopilot markers: every planned step applied exactly once, in order,
 * the killed process's steps first and the new one's from the next step on.
 *
 * The kill lands between steps on purpose: a step is claimed before it is applied, so a process
 * killed in the middle of one loses that step (at most once, never twice — decision 018) and
 * leaves its 30 s lease behind. The test reads the autopilot row before killing and kills only
 * when no lease is held and the next step is not about to be due; so the new process never
 * waits for a lease (checked below) and the test takes about 20 s.
 */

/** compressed: a "minute" is a second, so the six steps of this seed fall within ~9 s. */
const SEED = 8;
/** Steps the first process applies before it is killed (some, never all). */
const KILL_AFTER = 2;
/** The next step must be at least this far off when the kill is sent. */
const SAFE_MS = 300;
/** The port range this file's api processes may use. */
const PORTS = { first: 3880, last: 3899 };
const OPERATOR = { 'x-operator': 'restart-test' };

let testDb: TestDatabase;
let port: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  port = await freePort(PORTS.first, PORTS.last);
}, 60_000);

afterEach(async () => {
  await killAll();
});

afterAll(async () => {
  await killAll();
  await testDb?.destroy();
}, 60_000);

async function call<T>(api: ApiProcess, method: 'GET' | 'POST', url: string, body?: object) {
  const res = await fetch(`${api.url}${url}`, {
    method,
    headers: body ? { ...OPERATOR, 'content-type': 'application/json' } : OPERATOR,
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  expect(res.status, `${method} ${url}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
}

/** The autopilot's markers since `since`, oldest first. */
async function autopilotMarkers(api: ApiProcess, since: number): Promise<ChangeMarker[]> {
  const { markers } = await call<MarkerList>(api, 'GET', `/markers?since=${since}&limit=500`);
  return markers.filter((marker) => marker.kind === 'autopilot').reverse();
}

const stepOf = (marker: ChangeMarker) => (marker.after as { step: number }).step;

/** The stored row, read by this test beside the api (numbers as numbers). */
async function autopilotRow() {
  const row = await testDb.database.db
    .selectFrom('autopilot')
    .select(['status', 'next_step', 'lease_owner', 'lease_until'])
    .where('id', '=', 'default')
    .executeTakeFirstOrThrow();
  return { status: row.status, nextStep: Number(row.next_step), leaseOwner: row.lease_owner };
}

/** The steps an api process logged as applied by itself (app.ts logs each tick that applied). */
function stepsLoggedBy(api: ApiProcess): number[] {
  return api
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; steps?: number[] };
        return entry.msg === 'autopilot applied steps' ? (entry.steps ?? []) : [];
      } catch {
        return [];
      }
    });
}

describe('the autopilot across a SIGKILL of the api', () => {
  it(
    'a new process on the same database continues at the next step: each step once, in order',
    { timeout: 90_000 },
    async () => {
      const began = Date.now();
      // LOG_LEVEL info: each process logs the steps it applied (read back by stepsLoggedBy).
      const env = { ...testDb.serverEnv, LOG_LEVEL: 'info' };
      const first = await startApiProcess(port, env);

      const available = autopilotCandidates(
        (await call<ScenarioList>(first, 'GET', '/scenarios')).scenarios,
      );
      const plan = planAutopilot(AUTOPILOT_PROFILES.compressed, SEED, available);
      expect(plan.length, 'enough steps to kill in the middle').toBeGreaterThan(KILL_AFTER + 1);

      const since = Date.now();
      const started = await call<AutopilotState>(first, 'POST', '/autopilot/start', {
        profile: 'compressed',
        seed: SEED,
      });
      expect(started).toMatchObject({ status: 'running', seed: SEED, nextStep: 0 });
      expect(started.steps).toMatchObject(plan);
      const dueAt = (index: number) => started.startedAt! + plan[index]!.offsetMs;

      // Between two steps: KILL_AFTER or more applied, none in progress (no lease, the tick
      // over), the next one not due within SAFE_MS.
      await vi.waitFor(
        async () => {
          const row = await autopilotRow();
          if (row.nextStep < KILL_AFTER) throw new Error(`${row.nextStep} steps applied`);
          if (row.leaseOwner !== null) throw new Error(`step ${row.nextStep - 1} in progress`);
          // Its tick is over (it logs once the tick has applied what was due).
          if (stepsLoggedBy(first).length < row.nextStep) throw new Error('tick not over');
          if (row.nextStep < plan.length && dueAt(row.nextStep) - Date.now() < SAFE_MS) {
            throw new Error(`step ${row.nextStep} due now`);
          }
        },
        { timeout: 30_000, interval: 20 },
      );
      await first.kill();
      const killedAt = Date.now();
      const atKill = await autopilotRow();
      expect(atKill.status).toBe('running');
      expect(atKill.leaseOwner).toBeNull();
      const applied = atKill.nextStep;
      expect(applied, 'some steps applied before the kill, not all').toBeGreaterThanOrEqual(
        KILL_AFTER,
      );
      expect(applied).toBeLessThan(plan.length);

      const second = await startApiProcess(port, env);
      const restartedAt = Date.now();
      const resumed = await call<AutopilotState>(second, 'GET', '/autopilot');
      expect(resumed).toMatchObject({
        status: 'running',
        seed: SEED,
        startedAt: started.startedAt,
      });
      expect(resumed.nextStep).toBeGreaterThanOrEqual(applied);
      expect(resumed.steps.filter((step) => step.applied).length).toBe(resumed.nextStep);

      await vi.waitFor(
        async () => {
          const row = await autopilotRow();
          if (row.status !== 'finished') throw new Error(`${row.status}, next ${row.nextStep}`);
        },
        { timeout: 40_000, interval: 50 },
      );

      const markers = await autopilotMarkers(second, since);
      expect(markers.map((marker) => marker.action)).toEqual([
        'start',
        ...plan.map(() => 'step'),
        'finish',
      ]);
      const steps = markers.filter((marker) => marker.action === 'step');
      expect(steps.map(stepOf), 'each step once, in order').toEqual(plan.map((s) => s.index));
      for (const [i, marker] of steps.entries()) {
        expect(marker.after, `step ${i}`).toMatchObject({
          step: i,
          of: plan.length,
          turnOn: plan[i]!.turnOn,
          turnOff: plan[i]!.turnOff,
        });
        expect(marker.after).not.toHaveProperty('failed');
        // No step before it was due.
        expect(marker.at, `step ${i}`).toBeGreaterThanOrEqual(dueAt(i));
      }
      // The killed process applied the first `applied` steps, the new one the rest.
      const before = steps.filter((marker) => marker.at <= killedAt).map(stepOf);
      const after = steps.filter((marker) => marker.at > killedAt).map(stepOf);
      expect(before).toEqual(plan.slice(0, applied).map((s) => s.index));
      expect(after).toEqual(plan.slice(applied).map((s) => s.index));
      expect(stepsLoggedBy(first)).toEqual(before);
      expect(stepsLoggedBy(second)).toEqual(after);
      // Not held up by a lease (30 s): the next step came with the new process's first ticks.
      const firstAfter = steps[applied]!;
      expect(firstAfter.at - Math.max(restartedAt, dueAt(applied))).toBeLessThan(5_000);

      // Every scenario start and stop of the schedule happened once, and none is left on.
      const all = await call<MarkerList>(second, 'GET', `/markers?since=${since}&limit=500`);
      const scenarioMarkers = all.markers.filter(
        (marker) => marker.kind === 'scenario' && marker.operator === 'autopilot',
      );
      const transitions = plan.reduce((n, s) => n + s.turnOn.length + s.turnOff.length, 0);
      expect(scenarioMarkers).toHaveLength(transitions);
      expect((await call<ScenarioList>(second, 'GET', '/scenarios')).active).toEqual([]);
      await second.stop();

      console.info(
        `autopilot restart (${testDb.database.kind}): ${plan.length} steps, ` +
          `${before.length} before the SIGKILL, ${after.length} after; restart took ` +
          `${restartedAt - killedAt} ms; first step after it ${firstAfter.at - restartedAt} ms ` +
          `after the restart (due ${dueAt(applied) - restartedAt} ms); ` +
          `${((Date.now() - began) / 1000).toFixed(1)} s`,
      );
    },
  );
});
