import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import {
  createRumAction,
  createRumError,
  createRumView,
  sendRum as sendRumTo,
} from '../../test/rum-factories.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from '../flags/definitions.js';
import { createFlagsRepository } from '../flags/repository.js';
import type { ChangeMarker, MarkerList } from '@showroom/contracts/markers';
import type {
  ScenarioList,
  ScenarioProofList,
  ScenarioStartResult,
} from '@showroom/contracts/scenarios';
import { parseScenarioCatalogue, readScenarioCatalogue } from './catalogue.js';
import { scenarioFlagProblem } from './service.js';
import { FAULT_FLAGS, FAULT_RUM_ERRORS } from '@showroom/contracts/faults';

const T0 = Date.UTC(2026, 0, 15, 12);
let clock = T0;

const rule = (message: string) => ({
  kind: 'sessions-with',
  match: { type: 'error', message },
  minShare: 1,
});

const scenario = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Scenario ${id}`,
  category: 'switch',
  demonstrates: 'Something worth showing.',
  entry: '/department/chairs/product/13',
  switches: { loaf: 'true' },
  flagChanges: [],
  pages: ['/department/chairs/product/13'],
  promises: { localStorage: { showLoAF: 'true' } },
  signal: { description: 'an error', rule: rule('^Boom') },
  journey: [{ action: 'addToCart' }, { action: 'checkout' }],
  ...extra,
});

/** A catalogue written by someone else: good entries around bad ones. */
const CATALOGUE = {
  scenarios: [
    scenario('switch-only'),
    scenario('payments-off', {
      category: 'fault',
      switches: {},
      flagChanges: [
        { flag: 'show_payments', enabled: false },
        { flag: 'new_checkout_flow', allocation: 'rollout', rolloutPercentage: 15 },
      ],
      signal: {
        description: 'errors over actions',
        rule: {
          kind: 'ratio',
          numerator: { type: 'error', message: '^Payment' },
          denominator: [
            { type: 'error', message: '^Payment' },
            { type: 'action', name: 'place order' },
          ],
          min: 0.2,
        },
      },
    }),
    scenario('no-title', { title: undefined }),
    scenario('switch-only'),
    scenario('bad-regex', { signal: { description: 'x', rule: rule('(unclosed') } }),
    scenario('unknown-flag', { flagChanges: [{ flag: 'no_such_flag', enabled: true }] }),
    scenario('Bad Id'),
    // Well formed, but the flag refuses them: checked against the served flags at start-up.
    scenario('unknown-allocation', {
      flagChanges: [{ flag: 'new_checkout_flow', allocation: 'nowhere', rolloutPercentage: 5 }],
    }),
    scenario('rule-not-evaluable', {
      flagChanges: [
        { flag: 'show_payments', enabled: false },
        {
          flag: 'new_checkout_flow',
          allocation: 'rollout',
          rules: [{ conditions: [{ attribute: 'tier', operator: 'SOUNDS_LIKE', value: 'gold' }] }],
        },
      ],
    }),
    scenario('rule-bad-value', {
      flagChanges: [
        {
          flag: 'new_checkout_flow',
          allocation: 'rollout',
          rules: [{ conditions: [{ attribute: 'tier', operator: 'GTE', value: 'gold' }] }],
        },
      ],
    }),
  ],
};

let testDb: TestDatabase;
let app: FastifyInstance;
let warnings: string[];

beforeAll(async () => {
  testDb = await createTestDatabase();
  await createFlagsRepository(testDb.database.db, () => clock).syncDefinitions(
    await readFlagDefinitions(DEFAULT_FLAGS_PATH),
  );
  const catalogue = parseScenarioCatalogue(JSON.stringify(CATALOGUE), 'their-scenarios.json');
  warnings = catalogue.warnings;
  app = await buildApp({
    database: testDb.database,
    flags: { now: () => clock },
    scenarios: catalogue,
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const sendRum = (events: unknown[]) => sendRumTo(app, events);

const tagged = (event: Record<string, unknown>, scenarioId: string | null) => ({
  ...event,
  context: {
    ...((event.context as object | undefined) ?? {}),
    ...(scenarioId ? { scenario: scenarioId } : {}),
  },
});

const flag = async (key: string) =>
  (await app.inject({ method: 'GET', url: `/flags/${key}` })).json<{
    enabled: boolean;
    allocations: { key: string; rolloutPercentage: number }[];
  }>();

const markers = async (query = '') =>
  (await app.inject({ method: 'GET', url: `/markers${query}` })).json<MarkerList>().markers;

describe('the catalogue file', () => {
  it('serves the good scenarios and names each one left out, with why', async () => {
    const list = (await app.inject({ method: 'GET', url: '/scenarios' })).json<ScenarioList>();
    expect(list.scenarios.map((entry) => entry.id)).toEqual(['switch-only', 'payments-off']);
    expect(list.scenarios[0]!.link).toBe(
      '/department/chairs/product/13?loaf=true&scenario=switch-only',
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /their-scenarios\.json: scenario "no-title" \(scenarios\.2\) skipped: .*title/,
      ),
      expect.stringMatching(/scenario "switch-only" \(scenarios\.3\) skipped: its id repeats/),
      expect.stringMatching(
        /scenario "bad-regex" \(scenarios\.4\) skipped: signal\.rule\.match\.message is not a regular expression/,
      ),
      expect.stringMatching(/scenario "Bad Id" \(scenarios\.6\) skipped: id /),
      expect.stringMatching(/scenario "unknown-flag" skipped: it changes flag "no_such_flag"/),
      'their-scenarios.json: scenario "unknown-allocation" skipped: flagChanges.0 cannot be made to flag "new_checkout_flow": Flag "new_checkout_flow" has no allocation "nowhere"',
      'their-scenarios.json: scenario "rule-not-evaluable" skipped: flagChanges.1 cannot be made to flag "new_checkout_flow": rules.0 cannot be evaluated',
      'their-scenarios.json: scenario "rule-bad-value" skipped: flagChanges.0 cannot be made to flag "new_checkout_flow": rules.0.conditions.0.value must be a number for operator GTE',
    ]);
  });

  it('a file that is not JSON gives no scenarios and a warning, never a failed start', () => {
    const broken = parseScenarioCatalogue('{ not json', 'broken.json');
    expect(broken.scenarios).toEqual([]);
    expect(broken.warnings).toEqual([expect.stringMatching(/^broken\.json: not JSON/)]);
    const missing = readScenarioCatalogue('/nonexistent/scenarios.json');
    expect(missing.scenarios).toEqual([]);
    expect(missing.warnings[0]).toMatch(/cannot be read/);
  });

  it("the shop's own catalogue is valid throughout, changes only served flags, and matches the faults' messages", async () => {
    const own = readScenarioCatalogue();
    const served = await readFlagDefinitions(DEFAULT_FLAGS_PATH);
    const byKey = new Map(served.flags.map((flag) => [flag.key, flag]));
    own.keepServable((entry) => scenarioFlagProblem(entry, byKey));
    expect(own.warnings).toEqual([]);
    // Every fault flag has a scenario, and its rule recognises the error the shop reports.
    for (const key of Object.keys(FAULT_FLAGS)) {
      expect(
        own.scenarios.some((entry) => entry.flagChanges.some((c) => c.flag === key)),
        key,
      ).toBe(true);
    }
    const messageRule = (flag: string) => {
      const rule = own.scenarios.find((entry) => entry.flagChanges.some((c) => c.flag === flag))!
        .signal.rule;
      const match =
        rule.kind === 'ratio' ? rule.numerator : rule.kind === 'sessions-with' ? rule.match : null;
      return new RegExp(match?.message ?? '(?!)');
    };
    expect(
      messageRule('fault_payment_decline_percent').test(FAULT_RUM_ERRORS.paymentDeclined),
    ).toBe(true);
    expect(
      messageRule('fault_broken_product_images').test(FAULT_RUM_ERRORS.productImageFailed),
    ).toBe(true);
    expect(
      messageRule('fault_recommendations_error').test(FAULT_RUM_ERRORS.recommendationsFailed),
    ).toBe(true);
  });
});

describe('starting and stopping', () => {
  it('a scenario of query switches changes no flag and records nothing', async () => {
    const res = await app.inject({ method: 'POST', url: '/scenarios/switch-only/start' });
    expect(res.statusCode).toBe(200);
    const body = res.json<ScenarioStartResult>();
    expect(body.run).toBeNull();
    expect(body.link).toBe('/department/chairs/product/13?loaf=true&scenario=switch-only');
    expect(await markers()).toEqual([]);
  });

  it('a scenario with flag changes makes them, runs until stopped, and puts the flags back', async () => {
    clock = T0 + 60_000;
    const before = await flag('new_checkout_flow');
    const rollout = before.allocations.find((a) => a.key === 'rollout')!.rolloutPercentage;
    expect((await flag('show_payments')).enabled).toBe(true);

    const started = await app.inject({
      method: 'POST',
      url: '/scenarios/payments-off/start',
      headers: { 'x-operator': 'ada' },
    });
    expect(started.statusCode).toBe(200);
    const { run } = started.json<ScenarioStartResult>();
    expect(run).toMatchObject({ scenarioId: 'payments-off', startedBy: 'ada', stoppedAt: null });
    expect((await flag('show_payments')).enabled).toBe(false);
    expect(
      (await flag('new_checkout_flow')).allocations.find((a) => a.key === 'rollout')!
        .rolloutPercentage,
    ).toBe(15);

    // Started again while running: the same run, nothing changed twice.
    const again = await app.inject({ method: 'POST', url: '/scenarios/payments-off/start' });
    expect(again.json<ScenarioStartResult>().run?.id).toBe(run!.id);
    const list = (await app.inject({ method: 'GET', url: '/scenarios' })).json<ScenarioList>();
    expect(list.active.map((entry) => entry.id)).toEqual([run!.id]);

    clock = T0 + 120_000;
    const stopped = await app.inject({
      method: 'POST',
      url: '/scenarios/payments-off/stop',
      headers: { 'x-operator': 'grace' },
    });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({
      run: { id: run!.id, stoppedBy: 'grace', stoppedAt: T0 + 120_000 },
    });
    expect((await flag('show_payments')).enabled).toBe(true);
    expect(
      (await flag('new_checkout_flow')).allocations.find((a) => a.key === 'rollout')!
        .rolloutPercentage,
    ).toBe(rollout);
    expect(
      (await app.inject({ method: 'GET', url: '/scenarios' })).json<ScenarioList>().active,
    ).toEqual([]);
    // Stopping what is not running is no change.
    const idle = await app.inject({ method: 'POST', url: '/scenarios/payments-off/stop' });
    expect(idle.json()).toEqual({ run: null });
  });

  it('answers 404 for an unknown scenario and 400 naming the field for a malformed id', async () => {
    const count = (await markers()).length;
    const unknown = await app.inject({ method: 'POST', url: '/scenarios/no-such/start' });
    expect(unknown.statusCode).toBe(404);
    const malformed = await app.inject({ method: 'POST', url: '/scenarios/Not%20An%20Id/start' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'id' });
    expect(await markers()).toHaveLength(count);
  });
});

describe('change markers', () => {
  it('shows flag changes from the audit and scenario starts and stops, newest first, per flag', async () => {
    const all = await markers();
    const summary = (marker: ChangeMarker) => `${marker.kind} ${marker.subject} ${marker.action}`;
    expect(all.map(summary)).toEqual([
      'scenario payments-off stop',
      'flag show_payments enable',
      'flag new_checkout_flow rollout',
      'scenario payments-off start',
      'flag new_checkout_flow rollout',
      'flag show_payments disable',
    ]);
    expect(all[0]).toMatchObject({
      operator: 'grace',
      at: T0 + 120_000,
      flags: ['show_payments', 'new_checkout_flow'],
    });
    expect(all[5]).toMatchObject({
      operator: 'ada (scenario payments-off)',
      before: { enabled: true },
      after: { enabled: false },
    });

    const payments = await markers('?flag=show_payments');
    expect(payments.map(summary)).toEqual([
      'scenario payments-off stop',
      'flag show_payments enable',
      'scenario payments-off start',
      'flag show_payments disable',
    ]);
    // A key that only looks like another under LIKE's wildcards matches nothing.
    expect(await markers('?flag=show%25payments')).toEqual([]);
    expect(await markers('?flag=show_paymentsX')).toEqual([]);
    expect((await markers(`?since=${T0 + 100_000}`)).map(summary)).toEqual(
      all.slice(0, 3).map(summary),
    );
  });

  it('records a build once per id, with the one it replaced', async () => {
    const post = (buildId: string) =>
      app.inject({ method: 'POST', url: '/markers/builds', payload: { buildId } });
    expect((await post('b-1')).json().marker).toMatchObject({
      kind: 'build',
      subject: 'b-1',
      before: null,
    });
    expect((await post('b-1')).json()).toEqual({ marker: null });
    expect((await post('b-2')).json().marker).toMatchObject({
      subject: 'b-2',
      before: 'b-1',
      after: 'b-2',
    });
    const bad = await post('no spaces');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field).toBe('buildId');
  });
});

describe('proofs', () => {
  it("measures each scenario's rule over the sessions its link opened, and only those", async () => {
    const session = (id: string, scenarioId: string | null, errors: string[], orders: number) => [
      tagged(createRumView({ sessionId: id, viewId: `${id}-v` }), scenarioId),
      ...errors.map((message, index) =>
        tagged(
          createRumError(message, { sessionId: id, viewId: `${id}-v`, id: `${id}-e${index}` }),
          scenarioId,
        ),
      ),
      ...Array.from({ length: orders }, (_, index) =>
        tagged(
          createRumAction('place order', {
            sessionId: id,
            viewId: `${id}-v`,
            id: `${id}-a${index}`,
          }),
          scenarioId,
        ),
      ),
    ];
    await sendRum([
      ...session('s1', 'payments-off', ['Payment declined: card'], 2),
      ...session('s2', 'payments-off', [], 3),
      // Not opened by the scenario: its declines do not count.
      ...session('s3', null, ['Payment declined: card', 'Payment declined: card'], 0),
      ...session('s4', 'switch-only', ['Boom!'], 0),
    ]);
    const proofs = (
      await app.inject({ method: 'GET', url: '/scenarios/proofs?sessions=5' })
    ).json<ScenarioProofList>();
    expect(proofs.proofs).toEqual([
      expect.objectContaining({
        scenarioId: 'switch-only',
        sessions: 1,
        measured: 1,
        status: 'proven',
      }),
      expect.objectContaining({
        scenarioId: 'payments-off',
        sessions: 2,
        measured: 1 / 6,
        measuredText: '17 %',
        basis: '1 of 6 events',
        status: 'not seen',
      }),
    ]);
    const one = (
      await app.inject({ method: 'GET', url: '/scenarios/proofs?sessions=1' })
    ).json<ScenarioProofList>();
    expect(one.proofs.find((proof) => proof.scenarioId === 'payments-off')?.sessions).toBe(1);
    const bad = await app.inject({ method: 'GET', url: '/scenarios/proofs?sessions=0' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field).toBe('sessions');
  });
});
