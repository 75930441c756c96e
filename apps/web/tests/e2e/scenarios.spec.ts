import type { Browser, Page } from '@playwright/test';
import { IDENTITY_KEYS, SCENARIO_STORAGE_KEY } from '../../app/startup/storage-keys';
import type { ScenarioList, ScenarioProofList, Scenario } from '@showroom/contracts/scenarios';
import type { FlagView } from '@showroom/contracts/flags-admin';
import type { MarkerList } from '@showroom/contracts/markers';
import { changesFlagService } from '@showroom/contracts/scenario-link';
import { expect, test } from './fixtures';
import {
  captureSentRumEvents,
  hidePage,
  leavePage,
  withSecondShop,
  type SentRumEvent,
} from './monitoring-helpers';
import { measureSignal, signalEventOf } from '@showroom/contracts/scenario-signals';
import { CATALOGUE, openScenarioLink, runJourney } from './scenario-journeys';

// Scenarios with flag changes change the flag service for every shopper it targets: this file
// runs on its own api and web server, one test at a time, so no other test meets a fault.
test.describe.configure({ mode: 'serial' });

const API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 15;
const WEB_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 16;
const API = `http://127.0.0.1:${API_PORT}`;
const WEB = `http://127.0.0.1:${WEB_PORT}`;
/** Sessions each scenario's proof opens (a handful, as a presenter would). */
const PROOF_SESSIONS = 3;

withSecondShop(API_PORT, WEB_PORT);

const apiJson = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const response = await fetch(`${API}${path}`, init);
  expect(response.status, `${init?.method ?? 'GET'} ${path}`).toBe(200);
  return (await response.json()) as T;
};
const stopScenario = (id: string) =>
  apiJson(`/scenarios/${id}/stop`, { method: 'POST', headers: { 'x-operator': 'e2e' } });

async function inFreshBrowser<T>(browser: Browser, run: (page: Page) => Promise<T>) {
  const context = await browser.newContext();
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

test('/scenarios shows every scenario of the data file, and stores no identity', async ({
  browser,
}) => {
  await inFreshBrowser(browser, async (page) => {
    await page.goto(`${WEB}/scenarios`);
    const cards = page.getByTestId('scenario');
    await expect(cards).toHaveCount(CATALOGUE.length);
    for (const scenario of CATALOGUE) {
      const card = page.locator(`[data-scenario-id="${scenario.id}"]`);
      await expect(card.getByRole('heading', { level: 3 })).toHaveText(scenario.title);
      await expect(card.getByTestId('scenario-signal')).toHaveText(scenario.signal.description);
      await expect(card.getByTestId('scenario-start')).toHaveAttribute(
        'href',
        `/scenarios/${scenario.id}/start`,
      );
    }
    // No start-up on /scenarios: nothing of a shopper is stored.
    const stored = await page.evaluate(() => Object.keys(localStorage));
    for (const key of Object.values(IDENTITY_KEYS)) expect(stored).not.toContain(key);
  });
});

test('each scenario link, opened in a fresh browser, leaves the storage and flag state it promises', async ({
  browser,
}) => {
  test.slow(); // one fresh browser per scenario
  for (const scenario of CATALOGUE) {
    await inFreshBrowser(browser, async (page) => {
      await openScenarioLink(page, scenario, WEB);
      const storage = await page.evaluate(() => ({
        local: { ...localStorage },
        session: { ...sessionStorage },
      }));
      expect(storage.local, scenario.id).toMatchObject(scenario.promises.localStorage ?? {});
      expect(storage.session, scenario.id).toMatchObject({
        ...(scenario.promises.sessionStorage ?? {}),
        [SCENARIO_STORAGE_KEY]: scenario.id,
      });
    });
    if (!changesFlagService(scenario)) continue;
    const { active } = await apiJson<ScenarioList>('/scenarios');
    expect(active.map((run) => run.scenarioId)).toEqual([scenario.id]);
    for (const change of scenario.flagChanges) {
      const flag = await apiJson<FlagView>(`/flags/${change.flag}`);
      if (change.enabled !== undefined) expect(flag.enabled, change.flag).toBe(change.enabled);
      if (change.rolloutPercentage !== undefined) {
        const allocation = flag.allocations.find((entry) => entry.key === change.allocation);
        expect(allocation?.rolloutPercentage, change.flag).toBe(change.rolloutPercentage);
      }
    }
    await stopScenario(scenario.id);
    expect((await apiJson<ScenarioList>('/scenarios')).active).toEqual([]);
  }
});

test('a flag change made on /flags appears as a marker on the inspector chart of that flag', async ({
  browser,
}) => {
  await inFreshBrowser(browser, async (page) => {
    await page.goto(`${WEB}/flags`);
    const card = page.getByTestId('flag-show_loaf');
    await card.getByRole('button', { name: 'Turn off' }).click();
    await expect(card.getByTestId('flag-status')).toHaveText('Off');
    try {
      await page.goto(`${WEB}/inspector`);
      const markers = page.getByTestId('flag-chart-show_loaf').getByTestId('chart-markers');
      await expect(markers.locator('li').first()).toContainText('flag show_loaf disable by');
      await expect(markers.locator('li').first()).toContainText('enabled true → enabled false');
      // Only that flag's chart carries it.
      await expect(page.getByTestId('markers')).toContainText('flag show_loaf disable');
    } finally {
      await page.goto(`${WEB}/flags`);
      await page.getByTestId('flag-show_loaf').getByRole('button', { name: 'Turn on' }).click();
      await expect(page.getByTestId('flag-show_loaf').getByTestId('flag-status')).toHaveText('On');
    }
  });
});

test('a web server that starts records its build as a change marker', async () => {
  const latest = (await (await fetch(`${WEB}/builds/latest.json`)).json()) as { id: string };
  await expect
    .poll(async () =>
      (await apiJson<MarkerList>('/markers')).markers
        .filter((marker) => marker.kind === 'build')
        .map((marker) => `${marker.subject} ${marker.action} by ${marker.operator}`),
    )
    .toEqual([`${latest.id} deploy by web server`]);
});

/**
 * The SDK batches on timers and reports some resources a moment after they load: before the
 * shopper leaves, hide the page (the SDK sends what it holds) until what it sent shows this
 * session's part of the signal, for at most a few seconds. Whether the signal holds is judged
 * afterwards, from what the intake stored, so a signal that never comes fails there.
 */
async function flushUntilSignalSent(
  page: Page,
  scenario: Scenario,
  sent: readonly SentRumEvent[],
): Promise<void> {
  const { rule } = scenario.signal;
  if (rule.kind === 'ratio') return; // a ratio is judged over all sessions, not one
  const shown = () => {
    const events = sent.flatMap((event) => {
      const signal = signalEventOf(event as unknown as Record<string, unknown>);
      return signal ? [signal] : [];
    });
    return measureSignal(rule, [{ id: 'this session', events }]).holds;
  };
  await expect
    .poll(
      async () => {
        await hidePage(page);
        return shown();
      },
      { timeout: 10_000 },
    )
    .toBe(true)
    .catch(() => {
      // Judged with the other sessions at the end.
    });
}

/** One session of a scenario: a fresh browser does its journey, then leaves (the SDK flushes). */
async function scenarioSession(browser: Browser, scenario: Scenario): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const sent = captureSentRumEvents(page);
    await runJourney(page, scenario, WEB);
    await flushUntilSignalSent(page, scenario, sent);
    await leavePage(page);
  } finally {
    await context.close();
  }
}

test('scenario proofs: every scenario, run in a handful of sessions, shows the signal it promises', async ({
  browser,
}) => {
  test.setTimeout(CATALOGUE.length * 60_000);
  for (const scenario of CATALOGUE) {
    try {
      await Promise.all(
        Array.from({ length: PROOF_SESSIONS }, () => scenarioSession(browser, scenario)),
      );
    } finally {
      if (changesFlagService(scenario)) await stopScenario(scenario.id);
    }
  }
  // The sessions' last batches arrive with their exit beacons: wait until every scenario has
  // its sessions (or the wait ends), then judge each rule once.
  let proofs: ScenarioProofList | undefined;
  await expect
    .poll(
      async () => {
        proofs = await apiJson<ScenarioProofList>(`/scenarios/proofs?sessions=${PROOF_SESSIONS}`);
        return proofs.proofs.filter(
          (proof) => proof.sessions === PROOF_SESSIONS && proof.status === 'proven',
        ).length;
      },
      { timeout: 30_000 },
    )
    .toBe(CATALOGUE.length)
    .catch(() => {
      // Judged below, with the table printed.
    });
  const table = proofs!.proofs.map(
    (proof) =>
      `${proof.status === 'proven' ? 'proven  ' : 'NOT SEEN'} ${proof.scenarioId.padEnd(24)} ${proof.measuredText.padStart(9)} (${proof.basis}) — rule: ${proof.rule}`,
  );
  console.log(`Scenario proofs over ${PROOF_SESSIONS} sessions each:\n${table.join('\n')}`);
  expect(proofs!.proofs.map((proof) => [proof.scenarioId, proof.sessions, proof.status])).toEqual(
    CATALOGUE.map((scenario) => [scenario.id, PROOF_SESSIONS, 'proven']),
  );
});
