import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardBody, GuardState } from '@showroom/contracts/guards';
import type { ChangeMarker } from '@showroom/contracts/markers';
import { buildApp } from '../../app.js';
import { createCheckoutSession, createRumView, sendRum } from '../../test/rum-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from './definitions.js';
import { createFlagsRepository } from './repository.js';
import { fetchAssignments } from './test-support.js';

// Guarded rollouts (docs/decisions/019-guarded-rollouts.md) on real stored RUM events, with a
// compressed clock: the flags clock is moved by hand and the checker is called directly.
const FLAG = 'new_checkout_flow';
const T0 = Date.UTC(2026, 0, 15, 12);
let clock = T0;

let testDb: TestDatabase;
let replicas: [FastifyInstance, FastifyInstance];

beforeAll(async () => {
  testDb = await createTestDatabase();
  await createFlagsRepository(testDb.database.db, () => clock).syncDefinitions(
    await readFlagDefinitions(DEFAULT_FLAGS_PATH),
  );
  const options = { database: testDb.database, flags: { now: () => clock } };
  replicas = [await buildApp(options), await buildApp(options)];
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await testDb.destroy();
});

const app = () => replicas[0];

const GUARD: GuardBody = {
  allocation: 'rollout',
  metric: { kind: 'payment-decline-rate' },
  control: 'off',
  treatment: 'on',
  margin: 0.05,
  minSessions: 5,
  action: 'rollback',
  steps: [5, 25, 50, 100],
  holdMs: 60_000,
  checkEveryMs: 15_000,
};

async function putGuard(body: GuardBody): Promise<GuardState> {
  const res = await app().inject({
    method: 'PUT',
    url: `/flags/${FLAG}/guard`,
    headers: { 'x-operator': 'presenter' },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<GuardState>();
}

async function guardState(): Promise<GuardState> {
  const res = await app().inject({ method: 'GET', url: `/guards/${FLAG}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<GuardState>();
}

async function rolloutPercentage(): Promise<number> {
  const res = await app().inject({ method: 'GET', url: `/flags/${FLAG}` });
  const flag = res.json<{ allocations: { key: string; rolloutPercentage: number }[] }>();
  const allocation = flag.allocations.find((a) => a.key === 'rollout');
  if (!allocation) throw new Error('no rollout allocation');
  return allocation.rolloutPercentage;
}

async function guardMarkers(since: number): Promise<ChangeMarker[]> {
  const res = await app().inject({
    method: 'GET',
    url: `/markers?flag=${FLAG}&since=${since}&limit=500`,
  });
  expect(res.statusCode, res.body).toBe(200);
  // Newest first on the wire: oldest first here, to read them in the order they happened.
  return res
    .json<{ markers: ChangeMarker[] }>()
    .markers.filter((marker) => marker.kind === 'guard')
    .reverse();
}

let sessionSerial = 0;

/**
 * Sends `count` checkout sessions of one variant at the current clock: each a view and a
 * `place order` action carrying the flag, and `declines` of them a payment-declined error first.
 */
async function sendSessions(variant: boolean, count: number, declines = 0): Promise<void> {
  const events = Array.from({ length: count }, (_, i) => {
    sessionSerial += 1;
    return createCheckoutSession({
      id: `guard-${sessionSerial}`,
      date: clock,
      flags: { [FLAG]: variant },
      declined: i < declines,
      orderAfterDecline: true,
    });
  }).flat();
  await sendRum(app(), events);
}

/** The variation precompute-assignments gives each of `count` shoppers (no opt-in attribute). */
async function servedVariations(count: number): Promise<Set<string>> {
  const served = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const answer = await fetchAssignments(app(), { targetingKey: `guard-shopper-${i}` });
    const flag = answer.data.attributes.flags[FLAG];
    if (flag) served.add(flag.variationKey);
  }
  return served;
}

describe('guarded rollouts', () => {
  it('steps 5 → 25 → 50 → 100 % while a healthy treatment holds, and never trips', async () => {
    clock += 60_000;
    const start = clock;
    const state = await putGuard(GUARD);
    expect(state).toMatchObject({ status: 'watching', currentStep: 0, percentage: 5 });
    expect(await rolloutPercentage()).toBe(5);

    const seen: number[] = [];
    // The step to 100 % completes the rollout: nobody is left on control to compare with.
    for (let round = 0; round < 3; round += 1) {
      // Traffic through the step, then a check once it has held for holdMs.
      clock += 30_000;
      await sendSessions(false, 6);
      await sendSessions(true, 6);
      clock += 30_000;
      const [outcome] = await app().guards.checkDue();
      expect(outcome).toMatchObject({ flag: FLAG, acted: true });
      expect(outcome?.check.treatment).toEqual({ value: 0, sessions: 6 });
      expect(outcome?.check.control).toEqual({ value: 0, sessions: 6 });
      seen.push(await rolloutPercentage());
    }
    expect(seen).toEqual([25, 50, 100]);
    expect(await guardState()).toMatchObject({
      status: 'completed',
      currentStep: 3,
      trippedAt: null,
    });

    const markers = await guardMarkers(start);
    expect(markers.map((m) => [m.action, (m.after as { percentage: number }).percentage])).toEqual([
      ['step', 5],
      ['step', 25],
      ['step', 50],
      ['step', 100],
      ['completed', 100],
    ]);
    expect(markers.every((m) => m.operator === 'guard' && m.subject === FLAG)).toBe(true);
    // A completed guard is no longer checked.
    clock += 60_000;
    expect(await app().guards.checkDue()).toEqual([]);
  });

  it('does not step on before holdMs, nor while either variant has fewer than minSessions', async () => {
    clock += 60_000;
    await putGuard(GUARD);
    clock += 30_000;
    await sendSessions(false, 6);
    await sendSessions(true, 6);
    expect((await app().guards.check(FLAG))?.decision).toBe('none');
    clock += 60_000;
    await putGuard(GUARD);
    // Far past holdMs and a treatment that declines every time, but only 4 sessions of it.
    clock += 120_000;
    await sendSessions(false, 6);
    await sendSessions(true, 4, 4);
    const outcome = await app().guards.check(FLAG);
    expect(outcome).toMatchObject({ decision: 'none', acted: true });
    expect(outcome?.check.treatment).toEqual({ value: 0.5, sessions: 4 });
    expect(await guardState()).toMatchObject({ status: 'watching', currentStep: 0 });
    expect(await rolloutPercentage()).toBe(5);
  });

  it('trips within one check of a fault, rolls back to control and stores the numbers', async () => {
    clock += 60_000;
    const start = clock;
    await putGuard(GUARD);
    clock += 1_000;
    // The fault: half the treatment's orders are declined first.
    await sendSessions(false, 8);
    await sendSessions(true, 8, 8);
    clock += 15_000;
    const outcomes = await app().guards.checkDue();
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ decision: 'trip', acted: true });

    const state = await guardState();
    expect(state).toMatchObject({ status: 'rolled-back', trippedAt: clock, percentage: 0 });
    expect(state.trippedAt! - start).toBeLessThanOrEqual(GUARD.checkEveryMs! + 1_000);
    expect(await rolloutPercentage()).toBe(0);
    expect(await servedVariations(40)).toEqual(new Set(['off']));

    const markers = await guardMarkers(start);
    expect(markers.map((m) => m.action)).toEqual(['step', 'tripped', 'rolled-back']);
    expect(markers[1]?.after).toMatchObject({
      metric: { kind: 'payment-decline-rate' },
      control: { value: 0, sessions: 8 },
      treatment: { value: 0.5, sessions: 8 },
      margin: 0.05,
    });
    expect(markers[2]?.after).toMatchObject({ percentage: 0 });
    // A rolled-back guard acts no more.
    clock += 60_000;
    expect(await app().guards.checkDue()).toEqual([]);
  });

  it('the hold action keeps the current percentage and stops stepping', async () => {
    clock += 60_000;
    const start = clock;
    await putGuard({ ...GUARD, action: 'hold', steps: [10, 50] });
    expect(await rolloutPercentage()).toBe(10);
    clock += 70_000;
    await sendSessions(false, 6);
    await sendSessions(true, 6, 3);
    expect((await app().guards.check(FLAG))?.decision).toBe('trip');
    expect(await guardState()).toMatchObject({ status: 'held', percentage: 10 });
    expect(await rolloutPercentage()).toBe(10);
    expect((await guardMarkers(start)).map((m) => m.action)).toEqual(['step', 'tripped', 'held']);
  });

  it('two replicas checking the same guard at once: one acts, one marker', async () => {
    clock += 60_000;
    const start = clock;
    await putGuard(GUARD);
    clock += 1_000;
    await sendSessions(false, 6);
    await sendSessions(true, 6, 6);
    clock += 15_000;
    const outcomes = (
      await Promise.all(replicas.map((replica) => replica.guards.checkDue()))
    ).flat();
    expect(outcomes.filter((o) => o.decision === 'trip' && o.acted)).toHaveLength(1);
    const markers = await guardMarkers(start);
    expect(markers.map((m) => m.action)).toEqual(['step', 'tripped', 'rolled-back']);
    const audit = await app().inject({ method: 'GET', url: `/flags/audit?flag=${FLAG}` });
    const rollbacks = audit
      .json<{ entries: { operator: string; at: number; after: { rolloutPercentage: number } }[] }>()
      .entries.filter(
        (e) => e.operator === 'guard' && e.at >= start && e.after.rolloutPercentage === 0,
      );
    expect(rollbacks).toHaveLength(1);
  });

  it('reads p75 LCP of a page and JavaScript errors per session from the stored views and errors', async () => {
    clock += 60_000;
    await putGuard({
      ...GUARD,
      metric: { kind: 'p75-lcp', page: '/checkout' },
      margin: 500,
      steps: undefined,
    });
    clock += 1_000;
    const events: unknown[] = [];
    for (let i = 0; i < 6; i += 1) {
      for (const variant of [false, true]) {
        sessionSerial += 1;
        const sessionId = `guard-lcp-${sessionSerial}`;
        events.push(
          createRumView({
            sessionId,
            viewId: `guard-lcp-view-${sessionSerial}`,
            date: clock,
            url: 'http://localhost:3000/checkout',
            lcpNs: (variant ? 3_000 : 1_000) * 1e6,
            flags: { [FLAG]: variant },
          }),
          // Another page's slow view does not count.
          createRumView({
            sessionId,
            viewId: `guard-lcp-other-${sessionSerial}`,
            date: clock,
            url: 'http://localhost:3000/',
            lcpNs: 9_000 * 1e6,
            flags: { [FLAG]: variant },
          }),
        );
      }
    }
    await sendRum(app(), events);
    clock += 15_000;
    const outcome = await app().guards.check(FLAG);
    expect(outcome?.check.control).toEqual({ value: 1_000, sessions: 6 });
    expect(outcome?.check.treatment).toEqual({ value: 3_000, sessions: 6 });
    expect(outcome?.decision).toBe('trip');

    clock += 60_000;
    await putGuard({ ...GUARD, metric: { kind: 'js-errors-per-session' }, margin: 1 });
    clock += 1_000;
    await sendSessions(false, 5, 0);
    await sendSessions(true, 5, 5);
    clock += 15_000;
    const errors = await app().guards.check(FLAG);
    expect(errors?.check.control).toEqual({ value: 0, sessions: 5 });
    expect(errors?.check.treatment).toEqual({ value: 1, sessions: 5 });
    expect(errors?.decision).toBe('none');
  });

  it('refuses a bad guard with a 4xx naming the field; lists, reads and removes guards', async () => {
    for (const [payload, field] of [
      [{ ...GUARD, allocation: 'nope' }, 'allocation'],
      [{ ...GUARD, control: 'maybe' }, 'control'],
      [{ ...GUARD, treatment: 'off' }, 'treatment'],
      [{ ...GUARD, metric: { kind: 'action-error-rate' } }, 'metric.action'],
      [{ ...GUARD, metric: { kind: 'p75-lcp' } }, 'metric.page'],
      [{ ...GUARD, steps: [50, 25] }, 'steps'],
      [{ ...GUARD, margin: -1 }, 'margin'],
      [{ ...GUARD, minSessions: 0 }, 'minSessions'],
    ] as const) {
      const res = await app().inject({
        method: 'PUT',
        url: `/flags/${FLAG}/guard`,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message + (res.json().error.field ?? '')).toContain(field);
    }
    const unknown = await app().inject({
      method: 'PUT',
      url: '/flags/no_such_flag/guard',
      payload: GUARD,
    });
    expect(unknown.statusCode).toBe(404);

    const list = await app().inject({ method: 'GET', url: '/guards' });
    expect(list.json<{ guards: GuardState[] }>().guards.map((g) => g.flag)).toEqual([FLAG]);
    const removed = await app().inject({ method: 'DELETE', url: `/flags/${FLAG}/guard` });
    expect(removed.statusCode).toBe(204);
    expect((await app().inject({ method: 'GET', url: `/guards/${FLAG}` })).statusCode).toBe(404);
    expect((await app().inject({ method: 'DELETE', url: `/flags/${FLAG}/guard` })).statusCode).toBe(
      404,
    );
  });
});
