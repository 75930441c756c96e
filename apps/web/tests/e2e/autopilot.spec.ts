import type { Locator } from '@playwright/test';
import type { AutopilotState } from '@showroom/contracts/autopilot';
import type { FlagView } from '@showroom/contracts/flags-admin';
import type { MarkerList } from '@showroom/contracts/markers';
import { OFREP_EVALUATE_PATH } from '@showroom/contracts/ofrep';
import type { ScenarioList } from '@showroom/contracts/scenarios';
import { expect, test } from './fixtures';
import { withSecondShop } from './monitoring-helpers';

// The autopilot (docs/decisions/018-autopilot.md) turns the catalogue's fault scenarios on and
// off. Their fault flags have no targeting rule (apps/api/flags/faults.json): a fault that is on
// hits every shopper — product pages 3 s late, half the payments declined, broken images —, so
// on the shared shop it would fail other specs' journeys. This file runs on its own api and web
// server, one test at a time, as scenarios.spec.ts does.
test.describe.configure({ mode: 'serial' });

// Beside this run's api; other specs use + 7 to + 46, + 55/56 (builds.spec.ts) and + 61 to + 66, guards.spec.ts + 53/54.
const API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 51;
const WEB_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 52;
const API = `http://127.0.0.1:${API_PORT}`;
const WEB = `http://127.0.0.1:${WEB_PORT}`;

withSecondShop(API_PORT, WEB_PORT);

/**
 * Plans 6 steps of the compressed profile (a "minute" is 1 s): faults on after 1.5 s, two at
 * once, each fault period about 2 s, so the test can pause and stop while faults are on.
 */
const SEED = 3627;
/** The ticker applies due steps once a second (docs/decisions/018-autopilot.md, "The clock"). */
const TICK_MS = 1_000;

const apiJson = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const response = await fetch(`${API}${path}`, init);
  expect(response.status, `${init?.method ?? 'GET'} ${path}`).toBe(200);
  return (await response.json()) as T;
};
const autopilot = () => apiJson<AutopilotState>('/autopilot');
const activeScenarios = async () =>
  (await apiJson<ScenarioList>('/scenarios')).active.map((run) => run.scenarioId).sort();

/** The autopilot's markers since `since`, oldest first. */
async function autopilotMarkers(since: number) {
  const { markers } = await apiJson<MarkerList>(`/markers?since=${since}`);
  return markers.filter((marker) => marker.kind === 'autopilot').reverse();
}

/** The flags a scenario of the catalogue changes. */
async function flagsOf(scenarioIds: readonly string[]): Promise<string[]> {
  const { scenarios } = await apiJson<ScenarioList>('/scenarios');
  return scenarioIds.flatMap(
    (id) => scenarios.find((scenario) => scenario.id === id)?.flagChanges.map((c) => c.flag) ?? [],
  );
}

/** The variant the flag service gives a shopper nobody targeted (OFREP: the same evaluation). */
async function variantForAnyone(flag: string): Promise<string | undefined> {
  const answer = await apiJson<{ variant?: string }>(`${OFREP_EVALUATE_PATH}/${flag}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ context: { targetingKey: 'autopilot-e2e-bystander' } }),
  });
  return answer.variant;
}

/** The value the panel's state list shows for a term ("Status", "Step", "On now", "Next"). */
const panelValue = (state: Locator, term: string) =>
  state
    .locator('dt', { hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]');

test.afterEach(async () => {
  // Whatever happened above, the schedule is stopped and its faults are off.
  const { status } = await autopilot();
  if (status === 'running' || status === 'paused') {
    await apiJson('/autopilot/stop', { method: 'POST', headers: { 'x-operator': 'e2e clean-up' } });
  }
});

test('/demo follows a running schedule without a click on Refresh', async ({ page }) => {
  const panel = page.getByTestId('demo-autopilot');
  const state = panel.getByTestId('demo-autopilot-state');
  await page.goto(`${WEB}/demo`);
  await expect(state).toHaveAttribute('data-status', 'idle');
  await panel.getByLabel('Profile').selectOption('compressed');
  await panel.getByLabel('Seed').fill(String(SEED));
  await panel.getByRole('button', { name: 'Start' }).click();
  await expect(state).toHaveAttribute('data-status', 'running');
  const { steps } = await autopilot();
  await expect(panelValue(state, 'Step')).toHaveText(`0 of ${steps.length} done`);
  // The first step is due 1.5 s after the start; the panel reads the schedule again once it is.
  await expect(panelValue(state, 'Step')).not.toHaveText(`0 of ${steps.length} done`, {
    timeout: 10_000,
  });
  expect((await autopilot()).nextStep).toBeGreaterThan(0);
});

test('/demo starts, pauses, resumes and stops the autopilot; its faults and markers follow', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const panel = page.getByTestId('demo-autopilot');
  const state = panel.getByTestId('demo-autopilot-state');
  /** Asks the panel for the api's state until `check` passes (the panel reloads on Refresh). */
  const refreshUntil = (check: () => Promise<void>) =>
    expect(async () => {
      await panel.getByRole('button', { name: 'Refresh' }).click();
      await check();
    }).toPass({ timeout: 15_000, intervals: [100] });

  await page.goto(`${WEB}/demo`);
  await expect(state).toHaveAttribute('data-status', 'idle');
  await expect(panelValue(state, 'Status')).toHaveText('idle');

  // Start from the panel: compressed profile, fixed seed.
  await panel.getByLabel('Profile').selectOption('compressed');
  await panel.getByLabel('Seed').fill(String(SEED));
  await panel.getByRole('button', { name: 'Start' }).click();
  await expect(state).toHaveAttribute('data-status', 'running');
  await expect(panelValue(state, 'Profile and seed')).toHaveText(`compressed, seed ${SEED}`);
  const started = await autopilot();
  expect(started).toMatchObject({ status: 'running', profileName: 'compressed', seed: SEED });
  const { steps } = started;
  expect(steps.length).toBe(6);
  const [firstOn, firstOff, secondOn] = steps as [
    (typeof steps)[number],
    (typeof steps)[number],
    (typeof steps)[number],
  ];
  expect(firstOn.turnOn.length).toBeGreaterThan(0);
  expect(secondOn.turnOn.length).toBeGreaterThan(0);
  const faultFlags = await flagsOf(steps.flatMap((step) => step.turnOn));
  for (const flag of faultFlags) {
    expect((await apiJson<FlagView>(`/flags/${flag}`)).enabled, `${flag} before`).toBe(false);
  }

  // The schedule advances: the first step turns its faults on.
  await refreshUntil(() =>
    expect(panelValue(state, 'Step')).toHaveText(`1 of ${steps.length} done`, { timeout: 100 }),
  );
  const running = await autopilot();
  expect(running.nextStep, 'the second step (faults off) is not due yet').toBe(1);
  const plannedAt = running.nextAt!;
  expect(plannedAt).toBe(started.startedAt! + firstOff.offsetMs);

  // Pause while the faults are on.
  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect(state).toHaveAttribute('data-status', 'paused');
  const paused = await autopilot();
  expect(paused.nextStep, 'paused before the second step').toBe(1);
  expect(paused.nextAt).toBeNull();
  expect(paused.on).toEqual(firstOn.turnOn);

  // What the panel says is on is on: the scenarios run, their flags are on for any shopper.
  await expect(panelValue(state, 'On now')).toHaveText(firstOn.turnOn.join(', '));
  const shownOn = ((await panelValue(state, 'On now').textContent()) ?? '').split(', ');
  expect(await activeScenarios()).toEqual([...shownOn].sort());
  for (const flag of await flagsOf(shownOn)) {
    expect((await apiJson<FlagView>(`/flags/${flag}`)).enabled, flag).toBe(true);
    expect(await variantForAnyone(flag), flag).toBe('fault');
  }

  // Paused, the second step does not come: past the time it was planned for, plus a tick of
  // the ticker that would have applied it, nothing has moved.
  await expect
    .poll(() => Date.now(), { timeout: 10_000, message: 'the planned time of the next step' })
    .toBeGreaterThan(plannedAt + TICK_MS + 500);
  const stillPaused = await autopilot();
  expect(stillPaused).toMatchObject({ status: 'paused', nextStep: 1, on: firstOn.turnOn });
  expect(stillPaused.steps[1]?.applied).toBe(false);
  expect(await activeScenarios()).toEqual([...firstOn.turnOn].sort());
  await page.reload();
  await expect(state).toHaveAttribute('data-status', 'paused');
  await expect(panelValue(state, 'Step')).toHaveText(`1 of ${steps.length} done`);
  await expect(panelValue(state, 'Next')).toContainText('(paused)');

  // Resume: what was due later is due later by the pause, and the schedule goes on.
  await panel.getByRole('button', { name: 'Resume' }).click();
  await expect(state).toHaveAttribute('data-status', 'running');
  const resumed = await autopilot();
  expect(resumed.pausedMs).toBeGreaterThan(TICK_MS);
  expect(resumed.nextStep).toBe(1);
  expect(resumed.nextAt).toBe(plannedAt + resumed.pausedMs);
  await refreshUntil(() =>
    expect(panelValue(state, 'Step')).toHaveText(`2 of ${steps.length} done`, { timeout: 100 }),
  );
  await expect
    .poll(activeScenarios, { message: 'the second step turned the first faults off' })
    .toEqual([]);

  // The next fault period: once its step is done (its marker comes after its scenarios are on),
  // Stop from the panel.
  await expect
    .poll(async () => (await autopilotMarkers(started.startedAt!)).length, {
      timeout: 10_000,
      intervals: [50],
    })
    .toBe(6); // start, step, pause, resume, step, step
  expect(await activeScenarios()).toEqual([...secondOn.turnOn].sort());
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(state).toHaveAttribute('data-status', 'idle');
  await expect(panel.getByRole('button', { name: 'Start' })).toBeVisible();
  const stopped = await autopilot();
  expect(stopped).toMatchObject({ status: 'idle', on: [] });
  expect(stopped.nextStep, 'stopped while the second faults were on').toBe(3);
  await expect.poll(activeScenarios).toEqual([]);
  for (const flag of faultFlags) {
    await expect
      .poll(async () => (await apiJson<FlagView>(`/flags/${flag}`)).enabled, { message: flag })
      .toBe(false);
  }
  // Every transition of this run is a marker, in order; Stop's names what it turned off.
  const ours = await autopilotMarkers(started.startedAt!);
  expect(ours.map((marker) => `${marker.action} by ${marker.operator}`)).toEqual([
    'start by presenter',
    'step by autopilot',
    'pause by presenter',
    'resume by presenter',
    'step by autopilot',
    'step by autopilot',
    'stop by presenter',
  ]);
  expect(ours.at(-1)?.before).toEqual({ on: secondOn.turnOn });

  // The inspector lists them: all under "Changes", and each step beside the charts of the
  // flags it touched.
  const head = 'autopilot compressed';
  const stepLine = (index: number) => {
    const step = steps[index]!;
    const changes = [
      step.turnOn.length > 0 ? `on ${step.turnOn.join(', ')}` : null,
      step.turnOff.length > 0 ? `off ${step.turnOff.join(', ')}` : null,
    ].filter(Boolean);
    return `${head} step ${index + 1}/${steps.length} by autopilot: ${changes.join('; ')}`;
  };
  await page.goto(`${WEB}/inspector`);
  const changes = page.getByTestId('markers');
  for (const line of [
    `${head} start by presenter`,
    stepLine(0),
    `${head} pause by presenter`,
    `${head} resume by presenter`,
    stepLine(1),
    stepLine(2),
    `${head} stop by presenter`,
  ]) {
    await expect(changes.locator('li', { hasText: line }).first(), line).toBeVisible();
  }
  for (const flag of await flagsOf(firstOn.turnOn)) {
    const chart = page.getByTestId(`flag-chart-${flag}`).getByTestId('chart-markers');
    await expect(chart.locator('li', { hasText: stepLine(0) }).first(), flag).toBeVisible();
    await expect(chart.locator('li', { hasText: stepLine(1) }).first(), flag).toBeVisible();
  }
  for (const flag of await flagsOf(secondOn.turnOn)) {
    const chart = page.getByTestId(`flag-chart-${flag}`).getByTestId('chart-markers');
    await expect(chart.locator('li', { hasText: stepLine(2) }).first(), flag).toBeVisible();
    await expect(
      chart.locator('li', { hasText: `${head} stop by presenter` }).first(),
      flag,
    ).toBeVisible();
  }
});
