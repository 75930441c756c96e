import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionDetail, SessionSummary } from '@showroom/contracts/monitoring';
import { readTrafficProfile, TRAFFIC_JOURNEYS } from '@showroom/contracts/traffic';
import { describePlan, planSession, runTraffic } from '@showroom/traffic';
import { addToCart, productShown } from '@showroom/traffic/journeys';
import { expect, test } from './fixtures';
import { isRunning, processesBelow } from '../../../../scripts/process-tree.mjs';
import { withSecondShop } from './monitoring-helpers';

// The traffic generator (tools/traffic) against its own api and web server: a handful of real
// browser sessions, then what the monitoring intake holds of them.
const API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 25;
const WEB_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 26;
const API = `http://127.0.0.1:${API_PORT}`;
const WEB = `http://127.0.0.1:${WEB_PORT}`;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

// Serial: the first test counts every session this shop's intake holds.
test.describe.configure({ mode: 'serial' });
withSecondShop(API_PORT, WEB_PORT);

test('npm run traffic: three browser sessions, two at a time, each a tagged session in the intake', async () => {
  test.setTimeout(90_000);
  const { profile, warnings } = readTrafficProfile({
    name: 'e2e-traffic',
    seed: 11,
    rate: { '0': 600 },
    concurrency: 2,
    journeys: { checkout: 2, search: 1 },
    thinkTime: { minMs: 0, maxMs: 0 },
  });
  expect(warnings).toEqual([]);
  const lines: string[] = [];
  const summary = await runTraffic({
    baseUrl: WEB,
    profile,
    sessions: 3,
    runId: 'e2e-run',
    live: 'off',
    log: (line) => lines.push(line),
    sessionTimeoutMs: 40_000,
  });
  const failures = lines.filter((line) => line.includes('failed'));
  expect(summary.failed, failures.join('\n')).toBe(0);
  expect(summary.sessions).toBe(3);
  // The journeys the seed planned, in order.
  expect(summary.sequence).toEqual(
    [0, 1, 2].map((index) => describePlan(planSession(profile, index))),
  );
  const checkouts = summary.perJourney.find((row) => row.journey === 'checkout')?.sessions ?? 0;
  expect(summary.orders).toBe(checkouts);
  expect(summary.pageLoadP50Ms).toBeGreaterThan(0);
  // Three distinct monitoring sessions, all in the intake, each with the shopper's flags.
  expect(summary.rumSessions).toBe(3);
  expect(summary.intakeSessions).toBe(3);
  expect(summary.intakeWithFlags).toBe(3);

  // A fresh api: its intake holds the generator's sessions only.
  const listResponse = await fetch(`${API}/monitoring/sessions?limit=500`);
  const listed = (await listResponse.json()) as { sessions: SessionSummary[] };
  expect(listed.sessions).toHaveLength(3);
  for (const session of listed.sessions) {
    expect(Object.keys(session.flags).length, session.id).toBeGreaterThan(0);
    const response = await fetch(`${API}/monitoring/sessions/${session.id}`);
    const detail = (await response.json()) as SessionDetail;
    // Its actions carry the monitoring context naming the profile and the run.
    const actions = detail.timeline.filter((entry) => entry.kind === 'action');
    expect(actions.length, session.id).toBeGreaterThan(0);
    for (const action of actions) {
      expect(action.detail, `${session.id} ${action.title}`).toMatchObject({
        traffic: 'e2e-traffic',
        traffic_run: 'e2e-run',
      });
    }
  }
});

test('every journey of the catalogue completes in a browser session of its own', async () => {
  test.setTimeout(300_000);
  const failures: string[] = [];
  // Two journeys at a time, each run a profile that draws only that journey.
  const queue = [...TRAFFIC_JOURNEYS];
  const worker = async () => {
    for (let journey = queue.shift(); journey; journey = queue.shift()) {
      const { profile, warnings } = readTrafficProfile({
        name: `e2e-${journey}`,
        seed: 5,
        rate: { '0': 600 },
        concurrency: 1,
        journeys: { [journey]: 1 },
        scenarios: [{ id: 'buy-now-error', weight: 1 }],
        thinkTime: { minMs: 0, maxMs: 0 },
      });
      expect(warnings).toEqual([]);
      const lines: string[] = [];
      const summary = await runTraffic({
        baseUrl: WEB,
        profile,
        sessions: 1,
        runId: `e2e-${journey}`,
        live: 'off',
        log: (line) => lines.push(line),
        sessionTimeoutMs: 60_000,
      });
      // A scenario journey is reported with its scenario (`scenario:<id>`).
      expect(summary.perJourney.map((row) => row.journey.split(':')[0])).toEqual([journey]);
      if (summary.failed > 0) failures.push(`${journey}: ${lines.join('\n')}`);
    }
  };
  await Promise.all([worker(), worker()]);
  expect(failures).toEqual([]);
});

test('journeys open every product from a listing, the landing layout of the season table too', async ({
  page,
}) => {
  await page.goto(`${WEB}/department/tables`);
  await page.locator('a[href="/department/tables/product/10"]').first().click();
  await expect(productShown(page)).toBeVisible();
  await expect(page.getByTestId('landing')).toBeVisible();
  await addToCart(page);
});

test('Ctrl-C: the run stops, every browser closes and the summary is printed', async () => {
  test.setTimeout(200_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-traffic-ctrl-c-'));
  // As from a terminal: npm, tsx, the generator and Chromium in one foreground process group,
  // which Ctrl-C signals as a whole.
  const child = spawn(
    'npm',
    [
      'run',
      'traffic',
      '--',
      '--base-url',
      WEB,
      '--sessions',
      '50',
      '--concurrency',
      '2',
      '--rate-scale',
      '50',
      '--status-file',
      path.join(dir, 'status.json'),
    ],
    { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // npm's own end (not 'close': a straggler holding the pipes would keep that from firing, and
  // the check of the process tree below names it instead).
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
  );
  try {
    // Two sessions are under way in their browser.
    let browsers: number[] = [];
    await expect
      .poll(
        () => {
          browsers = processesBelow(child.pid!)
            .filter((p) => /chrom/i.test(p.name))
            .map((p) => p.pid);
          return browsers.length > 0 && (output.match(/^session #/gm) ?? []).length >= 2;
        },
        { timeout: 100_000 },
      )
      .toBe(true);
    // Every process of the run: npm, the generator, Chromium and its helpers.
    const tree = processesBelow(child.pid!);
    process.kill(-child.pid!, 'SIGINT');
    // The summary, once the browsers are closed.
    await expect.poll(() => output, { timeout: 60_000 }).toMatch(/^failed 0 of \d+/m);
    expect(output).toContain('stopping: closing the browsers');
    expect(output).toMatch(/Traffic run \S+ — profile steady, browser/);
    expect(output).toMatch(/^stopped before the end: [12] sessions$/m);
    // The generator exits 0 (nothing failed); npm then ends itself by the signal it was sent,
    // as a shell expects of an interrupted command.
    expect(['code 0', 'SIGINT'], output).toContain(await exited);
    // Nothing of the run is left (Chromium's helpers end a moment after their browser).
    await expect
      .poll(() => tree.filter((p) => isRunning(p.pid)).map((p) => `${p.name} ${p.pid}`), {
        timeout: 20_000,
      })
      .toEqual([]);
    expect(browsers.filter(isRunning)).toEqual([]);
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
