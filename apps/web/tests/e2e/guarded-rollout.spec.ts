import path from 'node:path';
import type { Page } from '@playwright/test';
import type { GuardState } from '@showroom/contracts/guards';
import type { ChangeMarker, MarkerList, Timeline } from '@showroom/contracts/markers';
import type { ScenarioList } from '@showroom/contracts/scenarios';
import type { FlagView } from '@showroom/contracts/flags-admin';
import { FAULT_RUM_ERRORS } from '@showroom/contracts/faults';
import { loadProfile, PROFILES_DIR, runTraffic, type TrafficSummary } from '@showroom/traffic';
import { expect, test } from './fixtures';
import { startSecondApi, startSecondWeb, type SecondServer } from './monitoring-helpers';

// The headline scenario of the catalogue (README "Guarded rollouts", docs/decisions/
// 020-guarded-rollout-scenario.md) on a shop of its own, with the traffic generator's browser
// sessions and a compressed clock: the new checkout rolls out in steps under a guard on its
// payment decline rate; the autopilot turns on payment failures in the new flow only; the guard
// rolls it back. Then the same seeded run without the fault completes the rollout.

/** Seconds for minutes: one of the scenario's minutes lasts this long. */
const MINUTE_MS = 15_000;
const HEADLINE = 'guarded-checkout-rollout';
const HEALTHY = 'guarded-checkout-rollout-healthy';
const FAULT = 'payment-failures-new-checkout';
const FLAG = 'new_checkout_flow';
/** The window the scenario states: the guard rolls back within 4 minutes of the fault. */
const TRIP_WINDOW_MINUTES = 4;

const BASE = Number(process.env.E2E_API_PORT ?? 3101);

test.describe.configure({ mode: 'serial' });

interface Shop {
  api: string;
  web: string;
  stop(): Promise<void>;
}

/** A fresh api (its own database) and web server; the guards are checked every half second. */
async function startShop(apiPort: number, webPort: number): Promise<Shop> {
  const web = `http://127.0.0.1:${webPort}`;
  const api = await startSecondApi(apiPort, web, { env: { GUARD_CHECK_INTERVAL_MS: '500' } });
  let webServer: SecondServer;
  try {
    webServer = await startSecondWeb(webPort, `http://127.0.0.1:${apiPort}`);
  } catch (error) {
    await api.stop();
    throw error;
  }
  return {
    api: `http://127.0.0.1:${apiPort}`,
    web,
    async stop() {
      await webServer.stop();
      await api.stop();
    },
  };
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const body = await response.text();
  expect(response.ok, `${init?.method ?? 'GET'} ${url}: ${response.status} ${body}`).toBe(true);
  return JSON.parse(body) as T;
}

const operator = { 'x-operator': 'e2e presenter' };

/**
 * Starts the scenario with the compressed clock and the guarded-rollout traffic profile, and
 * runs the traffic until the guard has acted for good (rolled back or completed).
 */
async function runScenario(
  shop: Shop,
  scenarioId: string,
): Promise<{ since: number; guard: GuardState; summary: TrafficSummary; markers: ChangeMarker[] }> {
  const since = Date.now();
  await json(`${shop.api}/scenarios/${scenarioId}/start?minuteMs=${MINUTE_MS}`, {
    method: 'POST',
    headers: operator,
  });
  const { profile, warnings } = loadProfile(path.join(PROFILES_DIR, 'guarded-rollout.json'));
  expect(warnings).toEqual([]);
  const stop = new AbortController();
  const lines: string[] = [];
  const traffic = runTraffic({
    baseUrl: shop.web,
    profile,
    durationMs: 20 * MINUTE_MS,
    runId: scenarioId,
    live: 'off',
    checkIntake: false,
    log: (line) => lines.push(line),
    sessionTimeoutMs: 60_000,
    signal: stop.signal,
  });
  let guard: GuardState | undefined;
  try {
    await expect
      .poll(
        async () => {
          guard = await json<GuardState>(`${shop.api}/guards/${FLAG}`);
          return guard.status;
        },
        { timeout: 16 * MINUTE_MS, intervals: [1_000] },
      )
      .toMatch(/^(rolled-back|completed|held)$/);
  } finally {
    stop.abort();
  }
  const summary = await traffic;
  console.info(
    `${scenarioId}: ${summary.sessions} sessions (${summary.failed} failed), ${summary.orders} orders in ${summary.seconds.toFixed(0)} s; guard ${guard?.status} at step ${guard?.currentStep}`,
  );
  const { markers } = await json<MarkerList>(`${shop.api}/markers?since=${since}&limit=500`);
  return { since, guard: guard!, summary, markers: [...markers].reverse() };
}

const isGuard = (marker: ChangeMarker, action: string) =>
  marker.kind === 'guard' && marker.subject === FLAG && marker.action === action;
const percentageOf = (marker: ChangeMarker) => (marker.after as { percentage: number }).percentage;

/** The inspector's timeline of the flag, as its list items say: kind and action. */
async function inspectorTimeline(page: Page, web: string): Promise<string[]> {
  await page.goto(`${web}/inspector?timeline=${FLAG}`);
  const items = page.getByTestId('timeline').locator('li');
  await expect(items.first()).toBeVisible();
  return items.evaluateAll((elements) =>
    elements.map((element) =>
      [element.getAttribute('data-entry-kind'), element.getAttribute('data-entry-action')]
        .filter(Boolean)
        .join(' '),
    ),
  );
}

test('the headline: payment failures in the new checkout trip its guard, which rolls the rollout back', async ({
  page,
}) => {
  test.setTimeout(24 * MINUTE_MS);
  const shop = await startShop(BASE + 71, BASE + 72);
  try {
    const { since, guard, summary, markers } = await runScenario(shop, HEADLINE);
    expect(summary.sessions).toBeGreaterThan(0);
    expect(guard.status).toBe('rolled-back');

    // The steps happened, then the fault, then the trip and the rollback, in that order.
    const story = markers.filter((marker) => marker.kind !== 'flag');
    const index = (find: (marker: ChangeMarker) => boolean) => story.findIndex(find);
    const faultAt = index(
      (marker) =>
        marker.kind === 'scenario' && marker.subject === FAULT && marker.action === 'start',
    );
    const trippedAt = index((marker) => isGuard(marker, 'tripped'));
    const rolledBackAt = index((marker) => isGuard(marker, 'rolled-back'));
    const steps = story.filter((marker) => isGuard(marker, 'step'));
    expect(faultAt, 'the fault marker').toBeGreaterThan(0);
    expect(steps.map(percentageOf)[0]).toBe(20);
    expect(index((marker) => isGuard(marker, 'step'))).toBeLessThan(faultAt);
    expect(trippedAt).toBeGreaterThan(faultAt);
    expect(rolledBackAt).toBe(trippedAt + 1);
    expect(story.some((marker) => isGuard(marker, 'completed'))).toBe(false);

    // Within the window the scenario states, with the numbers that tripped it.
    const fault = story[faultAt]!;
    const tripped = story[trippedAt]!;
    console.info(
      `${HEADLINE}: tripped ${((tripped.at - fault.at) / 1000).toFixed(1)} s after the fault (window ${(TRIP_WINDOW_MINUTES * MINUTE_MS) / 1000} s), steps ${steps.map(percentageOf).join(' → ')} %`,
    );
    expect(tripped.at - fault.at).toBeLessThanOrEqual(TRIP_WINDOW_MINUTES * MINUTE_MS);
    const numbers = tripped.after as {
      treatment: { value: number; sessions: number };
      control: { value: number; sessions: number };
      margin: number;
    };
    expect(numbers.treatment.value - numbers.control.value).toBeGreaterThan(numbers.margin);
    expect(numbers.treatment.sessions).toBeGreaterThanOrEqual(3);
    expect(numbers.control.sessions).toBeGreaterThanOrEqual(3);
    expect(percentageOf(story[rolledBackAt]!)).toBe(0);

    // New evaluations return control: the rollout allocation takes nobody now.
    const flag = await json<FlagView>(`${shop.api}/flags/${FLAG}`);
    expect(flag.allocations.find((entry) => entry.key === 'rollout')?.rolloutPercentage).toBe(0);
    for (let i = 0; i < 20; i += 1) {
      const answer = await json<{ value?: boolean; variant?: string }>(
        `${shop.api}/ofrep/v1/evaluate/flags/${FLAG}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ context: { targetingKey: `after-rollback-${i}` } }),
        },
      );
      expect(answer).toMatchObject({ value: false, variant: 'off' });
    }

    // The errors are on the timeline between the fault and the rollback.
    const timeline = await json<Timeline>(
      `${shop.api}/markers/timeline?flag=${FLAG}&since=${since}&limit=500`,
    );
    const entries = timeline.entries;
    const faultEntry = entries.findIndex(
      (entry) => entry.kind === 'marker' && entry.marker.id === fault.id,
    );
    const tripEntry = entries.findIndex(
      (entry) => entry.kind === 'marker' && entry.marker.id === tripped.id,
    );
    const declines = entries.filter(
      (entry, i) =>
        entry.kind === 'errors' &&
        entry.message === FAULT_RUM_ERRORS.paymentDeclined &&
        i > faultEntry &&
        i < tripEntry,
    );
    expect(declines.length, 'payment errors between the fault and the trip').toBeGreaterThan(0);
    expect(declines.every((entry) => entry.kind === 'errors' && entry.variant === 'on')).toBe(true);

    // The inspector shows the same story in the same order.
    const shown = await inspectorTimeline(page, shop.web);
    const firstOf = (label: string, after = -1) =>
      shown.findIndex((entry, i) => i > after && entry === label);
    const step = firstOf('guard step');
    const faultShown = firstOf('scenario start', step);
    const errorsShown = firstOf('errors', faultShown);
    const trippedShown = firstOf('guard tripped', errorsShown);
    const rolledBackShown = firstOf('guard rolled-back', trippedShown);
    expect(
      [step, faultShown, errorsShown, trippedShown, rolledBackShown].every((i) => i >= 0),
    ).toBe(true);
    await expect(
      page.getByTestId('timeline').locator('[data-entry-action="tripped"]'),
    ).toContainText('treatment');
    // Closed before its shop stops, so the page's monitoring and flag calls do not fail.
    await page.close();

    await json(`${shop.api}/scenarios/${HEADLINE}/stop`, { method: 'POST', headers: operator });
    expect((await json<ScenarioList>(`${shop.api}/scenarios`)).active).toEqual([]);
  } finally {
    await shop.stop();
  }
});

test('the same seeded run without the fault completes the rollout to 100 % and never trips', async () => {
  test.setTimeout(24 * MINUTE_MS);
  const shop = await startShop(BASE + 73, BASE + 74);
  try {
    const { guard, markers } = await runScenario(shop, HEALTHY);
    expect(guard.status).toBe('completed');
    const story = markers.filter((marker) => marker.kind === 'guard');
    expect(story.map((marker) => [marker.action, percentageOf(marker)])).toEqual([
      ['step', 20],
      ['step', 50],
      ['step', 100],
      ['completed', 100],
    ]);
    // Each step held the scenario's 6 minutes before the next one.
    for (let i = 1; i < 3; i += 1) {
      expect(story[i]!.at - story[i - 1]!.at).toBeGreaterThanOrEqual(6 * MINUTE_MS);
    }
    expect(markers.some((marker) => marker.kind === 'autopilot')).toBe(false);
    const flag = await json<FlagView>(`${shop.api}/flags/${FLAG}`);
    expect(flag.allocations.find((entry) => entry.key === 'rollout')?.rolloutPercentage).toBe(100);
    await json(`${shop.api}/scenarios/${HEALTHY}/stop`, { method: 'POST', headers: operator });
  } finally {
    await shop.stop();
  }
});
