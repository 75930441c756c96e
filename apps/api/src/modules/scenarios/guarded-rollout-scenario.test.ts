import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutopilotState } from '@showroom/contracts/autopilot';
import type { FlagView } from '@showroom/contracts/flags-admin';
import type { GuardState } from '@showroom/contracts/guards';
import type { ChangeMarker, MarkerList } from '@showroom/contracts/markers';
import type { ScenarioList, ScenarioStartResult } from '@showroom/contracts/scenarios';
import { buildApp } from '../../app.js';
import { createCatalogSeed } from '../../test/factories.js';
import {
  createOrderRequest,
  createSampleShopper,
  createShopperAgent,
  createTestShopperDirectory,
  setStock,
} from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { seedCatalog } from '../catalog/seed.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from '../flags/definitions.js';
import { createFlagsRepository } from '../flags/repository.js';
import { parseScenarioCatalogue, readScenarioCatalogue } from './catalogue.js';
import { scenarioFlagProblem } from './service.js';
import { FAULT_RUM_ERRORS } from '@showroom/contracts/faults';
import type { Timeline } from '@showroom/contracts/markers';
import { createCheckoutSession, sendRum } from '../../test/rum-factories.js';
import { fetchAssignments } from '../flags/test-support.js';

// The guarded checkout rollout of the catalogue (docs/decisions/020-guarded-rollout-scenario.md):
// starting it puts a stepped guard on new_checkout_flow and hands the autopilot a schedule that
// turns on payment failures aimed at the single-page flow; stopping it undoes all three. The
// clock is injected, the autopilot is ticked by hand; the browser run with the traffic
// generator is apps/web/tests/e2e/guarded-rollout.spec.ts.
const HEADLINE = 'guarded-checkout-rollout';
const FAULT = 'payment-failures-new-checkout';
const MINUTE_MS = 1_000;
const T0 = Date.UTC(2026, 10, 24, 9);
let clock = T0;
const now = () => clock;

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  await createFlagsRepository(testDb.database.db, now).syncDefinitions(
    await readFlagDefinitions(DEFAULT_FLAGS_PATH),
  );
  app = await buildApp({
    database: testDb.database,
    flags: { now },
    autopilot: { intervalMs: 0 },
    shopperDirectory: createTestShopperDirectory({
      standard: [createSampleShopper({ id: 'cccc0001' })],
    }),
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const operator = { 'x-operator': 'presenter' };
const getJson = async <T>(url: string): Promise<T> => {
  const res = await app.inject({ method: 'GET', url });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
};
const allocation = async (flag: string, key: string) =>
  (await getJson<FlagView>(`/flags/${flag}`)).allocations.find((a) => a.key === key)!;

/** Places an order in `flow` with a fresh cart; answers the status code. */
async function orderIn(flow: 'classic' | 'single-page'): Promise<number> {
  const agent = createShopperAgent(app);
  expect((await agent.put('/session/shopper', { shopperId: 'cccc0001' })).statusCode).toBe(200);
  await setStock(testDb.database.db, 1, 'standard', 50);
  expect((await agent.post('/cart/items', { productId: 1, edition: 'standard' })).statusCode).toBe(
    200,
  );
  return (await agent.post('/checkout/orders', createOrderRequest({ checkoutFlow: flow })))
    .statusCode;
}

let sessionSerial = 0;

/**
 * Checkout sessions of one new_checkout_flow variant as the browser reports them: the Datadog
 * flag provider sends the variation key ("on"), not the value.
 */
async function sendCheckouts(variant: 'on' | 'off', count: number, declines = 0): Promise<void> {
  const events = Array.from({ length: count }, (_, i) => {
    sessionSerial += 1;
    return createCheckoutSession({
      id: `headline-${sessionSerial}`,
      date: clock,
      flags: { new_checkout_flow: variant },
      declined: i < declines,
    });
  }).flat();
  await sendRum(app, events);
}

describe('the guarded checkout rollout scenario', () => {
  it('is in the catalogue with its fault, and the autopilot never draws either of them itself', () => {
    const catalogue = readScenarioCatalogue();
    expect(catalogue.warnings).toEqual([]);
    const headline = catalogue.find(HEADLINE)!;
    expect(headline.rollout).toMatchObject({ flag: 'new_checkout_flow', steps: [20, 50, 100] });
    expect(headline.autopilot?.profile.scenarios).toEqual([FAULT]);
    expect(catalogue.find(`${HEADLINE}-healthy`)?.autopilot).toBeUndefined();
    expect(catalogue.find(FAULT)?.flagChanges[0]?.rules).toEqual([
      {
        conditions: [{ attribute: 'checkoutFlow', operator: 'ONE_OF', value: ['single-page'] }],
      },
    ]);
  });

  it('starts the stepped guard and the schedule in scenario minutes; the fault hits the single-page flow only; stop undoes it all', async () => {
    const since = clock;
    expect(await orderIn('single-page')).toBe(201); // no fault yet

    const started = await app.inject({
      method: 'POST',
      url: `/scenarios/${HEADLINE}/start?minuteMs=${MINUTE_MS}`,
      headers: operator,
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json<ScenarioStartResult>().run).not.toBeNull();

    // The guard: the catalogue's minutes in ms, its first step applied at once.
    const guard = await getJson<GuardState>('/guards/new_checkout_flow');
    expect(guard).toMatchObject({
      status: 'watching',
      currentStep: 0,
      percentage: 20,
      definition: {
        allocation: 'rollout',
        control: 'off',
        treatment: 'on',
        metric: { kind: 'payment-decline-rate' },
        steps: [20, 50, 100],
        holdMs: 6 * MINUTE_MS,
        checkEveryMs: 1_000, // 0.25 min is 250 ms: raised to the guard's minimum
      },
    });
    expect((await allocation('new_checkout_flow', 'rollout')).rolloutPercentage).toBe(20);

    // The schedule: quiet for 7 minutes, the fault for 10.
    const autopilot = await getJson<AutopilotState>('/autopilot');
    expect(autopilot).toMatchObject({ status: 'running', profileName: `scenario:${HEADLINE}` });
    expect(autopilot.steps.map((step) => [step.offsetMs, step.turnOn, step.turnOff])).toEqual([
      [7 * MINUTE_MS, [FAULT], []],
      [17 * MINUTE_MS, [], [FAULT]],
    ]);
    // The autopilot is the scenario's now: starting another schedule is refused.
    const busy = await app.inject({
      method: 'POST',
      url: '/autopilot/start',
      headers: operator,
      payload: { profile: 'gentle' },
    });
    expect(busy.statusCode).toBe(409);

    clock += 7 * MINUTE_MS;
    expect(await app.autopilot.tick()).toEqual([0]);
    const { active } = await getJson<ScenarioList>('/scenarios');
    expect(active.map((run) => run.scenarioId).sort()).toEqual([HEADLINE, FAULT].sort());
    const fault = await allocation('fault_payment_decline_percent', 'fault-on');
    // Every order of the single-page flow is declined (the fault's "all" variation: 100 %).
    expect(fault.splits.map((split) => split.variationKey)).toEqual(['all']);
    expect(fault.rules).toEqual([
      {
        conditions: [{ attribute: 'checkoutFlow', operator: 'ONE_OF', value: ['single-page'] }],
      },
    ]);
    expect(await orderIn('classic')).toBe(201);
    expect(await orderIn('single-page')).toBe(402);

    // The browsers report it: declines in the new flow only. One check trips the guard.
    clock += MINUTE_MS;
    await sendCheckouts('off', 3);
    await sendCheckouts('on', 3, 2);
    clock += MINUTE_MS;
    const outcome = await app.guards.check('new_checkout_flow');
    expect(outcome).toMatchObject({ decision: 'trip', acted: true });
    // Two declines and one order: 2/3 of the new flow's place-order attempts failed.
    expect(outcome?.check.treatment).toEqual({ value: 2 / 3, sessions: 3 });
    expect(outcome?.check.control).toEqual({ value: 0, sessions: 3 });
    expect(await getJson<GuardState>('/guards/new_checkout_flow')).toMatchObject({
      status: 'rolled-back',
      percentage: 0,
    });
    expect((await allocation('new_checkout_flow', 'rollout')).rolloutPercentage).toBe(0);
    // New evaluations serve control to every shopper who has not opted in.
    for (let i = 0; i < 40; i += 1) {
      const answer = await fetchAssignments(app, { targetingKey: `headline-shopper-${i}` });
      expect(answer.data.attributes.flags.new_checkout_flow?.variationKey).toBe('off');
    }

    // The flag's timeline: steps, the fault, its errors, the trip and the rollback, in order.
    const timeline = await getJson<Timeline>(
      `/markers/timeline?flag=new_checkout_flow&since=${since}`,
    );
    const read = timeline.entries.map((entry) =>
      entry.kind === 'errors'
        ? `errors ${entry.count}× ${entry.message} (${entry.variant}, ${entry.sessions} sessions)`
        : `${entry.marker.kind} ${entry.marker.subject} ${entry.marker.action}`,
    );
    expect(read).toEqual([
      `scenario ${HEADLINE} start`,
      'guard new_checkout_flow step',
      `autopilot scenario:${HEADLINE} start`,
      `scenario ${FAULT} start`,
      `autopilot scenario:${HEADLINE} step`,
      `errors 2× ${FAULT_RUM_ERRORS.paymentDeclined} (on, 2 sessions)`,
      'guard new_checkout_flow tripped',
      'guard new_checkout_flow rolled-back',
    ]);
    const trip = timeline.entries.find(
      (entry) => entry.kind === 'marker' && entry.marker.action === 'tripped',
    );
    expect(trip?.kind === 'marker' && trip.marker.after).toMatchObject({
      metric: { kind: 'payment-decline-rate' },
      treatment: { value: 2 / 3, sessions: 3 },
      control: { value: 0, sessions: 3 },
      margin: 0.15,
    });

    clock += MINUTE_MS;
    const stopped = await app.inject({
      method: 'POST',
      url: `/scenarios/${HEADLINE}/stop`,
      headers: operator,
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect((await getJson<AutopilotState>('/autopilot')).status).toBe('idle');
    expect((await getJson<ScenarioList>('/scenarios')).active).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/guards/new_checkout_flow' })).statusCode).toBe(
      404,
    );
    // Back as the file has them: the rollout at 10 %, the fault off and aimed at everyone.
    expect((await allocation('new_checkout_flow', 'rollout')).rolloutPercentage).toBe(10);
    const faultAfter = await allocation('fault_payment_decline_percent', 'fault-on');
    expect(faultAfter.rules).toEqual([]);
    expect(faultAfter.splits.map((split) => split.variationKey)).toEqual(['fault']);
    expect((await getJson<FlagView>('/flags/fault_payment_decline_percent')).enabled).toBe(false);
    expect(await orderIn('single-page')).toBe(201);

    // The markers, oldest first: what the inspector's timeline is made of.
    const { markers } = await getJson<MarkerList>(`/markers?since=${since}&limit=100`);
    const story = [...markers]
      .reverse()
      .filter((marker) => marker.kind !== 'flag')
      .map((marker: ChangeMarker) => `${marker.kind} ${marker.subject} ${marker.action}`);
    expect(story).toEqual([
      `scenario ${HEADLINE} start`,
      'guard new_checkout_flow step',
      `autopilot scenario:${HEADLINE} start`,
      `scenario ${FAULT} start`,
      `autopilot scenario:${HEADLINE} step`,
      'guard new_checkout_flow tripped',
      'guard new_checkout_flow rolled-back',
      `scenario ${FAULT} stop`,
      `autopilot scenario:${HEADLINE} stop`,
      `scenario ${HEADLINE} stop`,
    ]);
  });

  it('refuses to start while the autopilot runs a schedule of its own, changing nothing', async () => {
    clock += 60_000;
    const running = await app.inject({
      method: 'POST',
      url: '/autopilot/start',
      headers: operator,
      payload: { profile: 'gentle', seed: 1 },
    });
    expect(running.statusCode).toBe(200);
    const refused = await app.inject({
      method: 'POST',
      url: `/scenarios/${HEADLINE}/start`,
      headers: operator,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'AUTOPILOT_STATE' } });
    expect((await getJson<ScenarioList>('/scenarios')).active).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/guards/new_checkout_flow' })).statusCode).toBe(
      404,
    );
    expect((await allocation('new_checkout_flow', 'rollout')).rolloutPercentage).toBe(10);
    await app.inject({ method: 'POST', url: '/autopilot/stop', headers: operator });
  });

  it('rejects a minute shorter than 100 ms, naming the field', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/scenarios/${HEADLINE}/start?minuteMs=5`,
      headers: operator,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('minuteMs');
    expect((await getJson<ScenarioList>('/scenarios')).active).toEqual([]);
  });
});

describe('a catalogue with rollouts and aimed faults written by someone else', () => {
  it('skips an entry with rules but no allocation, or steps that do not rise, and names it', async () => {
    const base = readScenarioCatalogue().find(HEADLINE)!;
    const { link: _link, ...headline } = base;
    const catalogue = parseScenarioCatalogue(
      JSON.stringify({
        scenarios: [
          headline,
          {
            ...headline,
            id: 'falling-steps',
            rollout: { ...headline.rollout!, steps: [50, 20] },
          },
          {
            ...headline,
            id: 'rules-nowhere',
            rollout: undefined,
            autopilot: undefined,
            flagChanges: [{ flag: 'fault_payment_decline_percent', rules: [] }],
          },
        ],
      }),
      'their-scenarios.json',
    );
    expect(catalogue.scenarios.map((scenario) => scenario.id)).toEqual([HEADLINE]);
    expect(catalogue.warnings).toEqual([
      'their-scenarios.json: scenario "falling-steps" (scenarios.1) skipped: rollout.steps must rise strictly',
      'their-scenarios.json: scenario "rules-nowhere" (scenarios.2) skipped: flagChanges.0.allocation is required with rules',
    ]);
    const served = await readFlagDefinitions(DEFAULT_FLAGS_PATH);
    const onlyFault = new Map(
      served.flags
        .filter((flag) => flag.key === 'fault_payment_decline_percent')
        .map((flag) => [flag.key, flag]),
    );
    catalogue.keepServable((scenario) => scenarioFlagProblem(scenario, onlyFault));
    expect(catalogue.scenarios).toEqual([]);
    expect(catalogue.warnings.at(-1)).toBe(
      `their-scenarios.json: scenario "${HEADLINE}" skipped: it changes flag "new_checkout_flow", which the flag service does not serve`,
    );
  });
});
