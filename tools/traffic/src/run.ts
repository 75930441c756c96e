import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { Scenario } from '@showroom/contracts/scenarios';
import { changesFlagService } from '@showroom/contracts/scenario-link';
import type { SessionSummary } from '@showroom/contracts/monitoring';
import type { TrafficProfile } from '@showroom/contracts/traffic';
import { isControlUrl, readControlUrl, watchControlFile, type ControlWatcher } from './control.js';
import { runHttpSession, type HttpEnvironment } from './http-only.js';
import { describePlan, planSession, type SessionPlan } from './planner.js';
import { rateAt } from './rate.js';
import { Scheduler } from './scheduler.js';
import { newSessionResult, runBrowserSession, StatePool, type SessionResult } from './session.js';
import { serveStatus, StatusBoard, statusLine, writeStatusFile } from './status.js';
import { percentile, summarize, type TrafficSummary } from './summary.js';
import { CHROMIUM_ARGS } from '../../../scripts/chromium.mjs';
import { OPERATOR_TOKEN_ENV, operatorHeadersOf } from '@showroom/contracts/security';

/** OPERATOR_TOKEN, when the shop sets one: the inspector's data and scenario stops need it. */
const OPERATOR_HEADERS = operatorHeadersOf(process.env[OPERATOR_TOKEN_ENV]);

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface TrafficOptions {
  /** The shop (web server) the sessions open: `http://localhost:3000`. */
  baseUrl: string;
  profile: TrafficProfile;
  /** What reading the profile skipped (printed and shown in the status). */
  profileWarnings?: string[];
  /** Stop after this many sessions… */
  sessions?: number;
  /** …or after this long (running sessions finish). */
  durationMs?: number;
  /** Overrides the profile's concurrency. */
  concurrency?: number;
  /** A JSON file of profile fields laid over the profile while it runs (read every 2 s). */
  controlFile?: string;
  /** The live status is written here as JSON. */
  statusFile?: string;
  /** The live status is served on 127.0.0.1:port. */
  statusPort?: number;
  /** No browser: api requests at the profile's rate. */
  httpOnly?: boolean;
  /** Exit status: failed when more than this share of sessions failed (0.2). */
  maxFailureShare?: number;
  /** A new browser after this many sessions (memory stays bounded). */
  recycleEvery?: number;
  chromePath?: string;
  /** Names this run in the monitoring context (`traffic.run`); default: time-based. */
  runId?: string;
  /** Multiplies every think time (tests: 0). */
  thinkTimeScale?: number;
  /** How the live status is shown: one refreshing line, a line every 10 s, or not at all. */
  live?: 'tty' | 'lines' | 'off';
  /** Ask the intake for the sessions at the end (true). */
  checkIntake?: boolean;
  /** A session taking longer fails (120 s). */
  sessionTimeoutMs?: number;
  log?: (line: string) => void;
  /** Abort (Ctrl-C): stops starting sessions, closes every browser, then summarizes. */
  signal?: AbortSignal;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

interface CatalogFile {
  departments: { slug: string }[];
  products: { id: number }[];
}

/** The scenarios the shop serves (its api), else the repository's data file. */
async function loadScenarios(origin: string): Promise<Scenario[]> {
  try {
    const response = await fetch(`${origin}/api/scenarios`, { headers: OPERATOR_HEADERS });
    if (response.ok) return ((await response.json()) as { scenarios: Scenario[] }).scenarios;
  } catch {
    // below
  }
  const file = path.join(REPO_ROOT, 'data/scenarios.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { scenarios: Scenario[] }).scenarios;
}

/** Browsers shared by sessions; a new one after `recycleEvery` sessions, the old one closed once idle. */
/** How long Ctrl-C waits for the running sessions to close before closing their browsers. */
const ABORT_GRACE_MS = 10_000;

/** Whether `promise` settles within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

class BrowserPool {
  private current: { browser: Promise<Browser>; used: number; active: number } | undefined;
  private retired = new Set<{ browser: Promise<Browser>; used: number; active: number }>();

  constructor(
    private readonly executablePath: string,
    private readonly recycleEvery: number,
  ) {}

  async acquire(): Promise<{ browser: Browser; release(): Promise<void> }> {
    if (!this.current || this.current.used >= this.recycleEvery) {
      if (this.current) this.retire(this.current);
      this.current = {
        browser: chromium.launch({
          executablePath: this.executablePath,
          args: [...CHROMIUM_ARGS],
          headless: true,
          // Ctrl-C is the run's to handle (main.ts): it stops the sessions, then closes the
          // browsers itself and prints the summary. Playwright's own handlers would close them
          // under the running sessions and end the process first.
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
        }),
        used: 0,
        active: 0,
      };
    }
    const entry = this.current;
    entry.used += 1;
    entry.active += 1;
    const browser = await entry.browser;
    return {
      browser,
      release: async () => {
        entry.active -= 1;
        if (this.retired.has(entry) && entry.active === 0) await this.close(entry);
      },
    };
  }

  private retire(entry: { browser: Promise<Browser>; used: number; active: number }) {
    this.retired.add(entry);
    if (entry.active === 0) void this.close(entry);
  }

  private async close(entry: { browser: Promise<Browser> }) {
    this.retired.delete(entry as never);
    await entry.browser.then((browser) => browser.close()).catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    const all = [...this.retired, ...(this.current ? [this.current] : [])];
    this.current = undefined;
    await Promise.all(all.map((entry) => this.close(entry)));
  }
}

/** The intake's sessions among `ids`: waits (up to `waitMs`) until it lists them all. */
async function intakeSessions(
  origin: string,
  ids: ReadonlySet<string>,
  waitMs: number,
): Promise<SessionSummary[] | null> {
  const until = Date.now() + waitMs;
  let found: SessionSummary[] | null = null;
  for (;;) {
    try {
      const response = await fetch(`${origin}/api/monitoring/sessions?limit=500`, {
        headers: OPERATOR_HEADERS,
      });
      if (response.ok) {
        const { sessions } = (await response.json()) as { sessions: SessionSummary[] };
        found = sessions.filter((session) => ids.has(session.id));
      }
    } catch {
      // the shop stopped: keep what was found
    }
    if ((found && found.length >= ids.size) || Date.now() >= until) return found;
    await sleep(1_000);
  }
}

/** Runs traffic against a shop until its limit (or the signal) and answers the summary. */
export async function runTraffic(options: TrafficOptions): Promise<TrafficSummary> {
  const log = options.log ?? ((line: string) => console.log(line));
  const origin = options.baseUrl.replace(/\/+$/, '');
  const mode = options.httpOnly ? 'http' : 'browser';
  const runId = options.runId ?? new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  const base: TrafficProfile = {
    ...options.profile,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  };
  if (options.sessions === undefined && options.durationMs === undefined) {
    throw new Error('a traffic run needs a limit: sessions or a duration');
  }
  for (const warning of options.profileWarnings ?? []) log(`warning: ${warning}`);
  const startedAt = Date.now();
  const scheduler = new Scheduler(base);
  const status = new StatusBoard(runId, origin, mode, base, startedAt, (profile, now) =>
    rateAt(profile, new Date(now)),
  );
  status.warnings.push(...(options.profileWarnings ?? []));

  const stop = new AbortController();
  const onOuterAbort = () => stop.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) stop.abort();

  const catalog = JSON.parse(
    fs.readFileSync(path.join(REPO_ROOT, 'data/catalog.json'), 'utf8'),
  ) as CatalogFile;
  const departments = catalog.departments.map((department) => department.slug);
  const scenarioList = mode === 'browser' ? await loadScenarios(origin) : [];
  const scenarios = new Map(scenarioList.map((scenario) => [scenario.id, scenario]));
  for (const entry of base.scenarios) {
    if (!scenarios.has(entry.id) && mode === 'browser') {
      const warning = `${base.name}: scenarios "${entry.id}" skipped: the shop serves no such scenario`;
      log(`warning: ${warning}`);
      status.warnings.push(warning);
    }
  }
  const known = new Set(scenarios.keys());
  const thinkScale = options.thinkTimeScale ?? 1;
  const pool = new BrowserPool(
    options.chromePath ?? process.env.CHROME_PATH ?? '/usr/bin/chromium',
    options.recycleEvery ?? 25,
  );
  const states = new StatePool();
  const httpEnv: HttpEnvironment = {
    apiUrl: `${origin}/api`,
    departments,
    productIds: catalog.products.map((product) => product.id),
    signal: stop.signal,
    latencies: [],
    counts: { requests: 0, errors: 0 },
    // The profile as a control has it now (its funnel), read when a session needs it.
    get profile() {
      return scheduler.current;
    },
    runId,
  };

  let control: ControlWatcher | undefined;
  if (options.controlFile) {
    control = watchControlFile(options.controlFile, {
      base,
      ...(isControlUrl(options.controlFile) ? { read: readControlUrl } : {}),
      onChange: ({ profile, warnings }) => {
        scheduler.setProfile(profile);
        status.profileChanged(profile, Date.now(), warnings);
        for (const warning of warnings) log(`warning: ${warning}`);
        log(
          `control: ${profile.paused ? 'paused' : `${rateAt(profile, new Date()).toFixed(1)} sessions/min`}, concurrency ${profile.concurrency}, journeys ${JSON.stringify(profile.journeys)}`,
        );
      },
      onProblem: (message) => log(`warning: ${message}`),
    });
    await control.check();
  }
  const server = options.statusPort
    ? await serveStatus(options.statusPort, () => status.snapshot(Date.now()))
    : undefined;
  if (server) log(`status on ${server.url}`);
  const live = options.live ?? (process.stdout.isTTY ? 'tty' : 'lines');
  let lastLine = 0;
  const report = (force = false) => {
    const snapshot = status.snapshot(Date.now());
    if (options.statusFile) writeStatusFile(options.statusFile, snapshot);
    if (live === 'tty')
      process.stdout.write(
        `\r\x1b[2K${statusLine(snapshot).slice(0, (process.stdout.columns ?? 200) - 1)}`,
      );
    else if (live === 'lines' && (force || Date.now() - lastLine >= 10_000)) {
      lastLine = Date.now();
      log(statusLine(snapshot));
    }
  };
  const clearLive = () => {
    if (live === 'tty') process.stdout.write('\r\x1b[2K');
  };
  const say = (line: string) => {
    clearLive();
    log(line);
  };

  const results: SessionResult[] = [];
  const sequence: string[] = [];
  const running = new Map<number, Promise<void>>();
  const startedScenarios = new Set<string>();
  let ended: () => void = () => undefined;

  /** The plans of the running sessions (a session given up on at Ctrl-C is reported from it). */
  const plans = new Map<number, SessionPlan>();
  const startSession = (plan: SessionPlan) => {
    sequence[plan.index] = describePlan(plan);
    say(`session ${sequence[plan.index]}`);
    if (plan.scenarioId) startedScenarios.add(plan.scenarioId);
    status.sessionStarted(
      plan.index,
      plan.scenarioId ? `scenario:${plan.scenarioId}` : plan.journey,
      Date.now(),
    );
    const work = (async (): Promise<SessionResult> => {
      if (mode === 'http') return runHttpSession(plan, httpEnv);
      const lease = await pool.acquire();
      try {
        return await runBrowserSession(lease.browser, plan, {
          origin,
          profileName: scheduler.current.name,
          runId,
          departments,
          scenarios,
          states,
          signal: stop.signal,
          sleep: (ms, signal) => sleep(ms * thinkScale, signal),
          sessionTimeoutMs: options.sessionTimeoutMs ?? 120_000,
        });
      } finally {
        await lease.release();
      }
    })()
      .catch((error: unknown): SessionResult => unfinished(plan, error))
      .then((result) => {
        if (!running.has(plan.index)) return; // given up on at Ctrl-C (below)
        plans.delete(plan.index);
        results.push(result);
        status.sessionEnded(result);
        running.delete(plan.index);
        if (!result.ok && !result.aborted) say(`session #${plan.index} failed: ${result.error}`);
        ended();
      });
    running.set(plan.index, work);
    plans.set(plan.index, plan);
  };
  const unfinished = (plan: SessionPlan, error: unknown): SessionResult => ({
    ...newSessionResult(plan, Date.now()),
    aborted: stop.signal.aborted,
    error: (error as Error).message?.split('\n')[0] ?? String(error),
  });

  const deadline = options.durationMs === undefined ? Infinity : startedAt + options.durationMs;
  let index = 0;
  let lastReport = 0;
  try {
    while (!stop.signal.aborted) {
      const now = Date.now();
      if ((options.sessions !== undefined && index >= options.sessions) || now >= deadline) break;
      const due = scheduler.due(now, running.size);
      for (let i = 0; i < due; i++) {
        if (options.sessions !== undefined && index >= options.sessions) break;
        startSession(
          planSession(scheduler.current, index++, mode === 'browser' ? known : undefined),
        );
      }
      if (now - lastReport >= 1_000) {
        lastReport = now;
        report();
      }
      await Promise.race([
        sleep(250, stop.signal),
        new Promise<void>((resolve) => (ended = resolve)),
      ]);
    }
    // The limit is reached: the running sessions finish (Ctrl-C closes them).
    while (running.size > 0) {
      await Promise.race([Promise.allSettled([...running.values()]), sleep(1_000, stop.signal)]);
      report();
      if (stop.signal.aborted) {
        // Ctrl-C closed every session's context; a session whose browser call does not return
        // (seen under load) must not keep the run from ending: its browser is closed under it.
        const settled = Promise.allSettled([...running.values()]);
        if (!(await within(settled, ABORT_GRACE_MS))) {
          say(`stopping: ${running.size} session(s) still open; closing their browser`);
          await pool.closeAll();
          await within(settled, ABORT_GRACE_MS);
          for (const index of [...running.keys()]) {
            const result = unfinished(plans.get(index)!, new Error('stopped'));
            running.delete(index);
            plans.delete(index);
            results.push(result);
            status.sessionEnded(result);
          }
        }
      }
    }
  } finally {
    control?.stop();
    await pool.closeAll();
    await server?.close();
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  report(true);
  clearLive();

  // Scenarios that changed flags for everyone are put back.
  for (const id of startedScenarios) {
    const scenario = scenarios.get(id);
    if (!scenario || !changesFlagService(scenario)) continue;
    await fetch(`${origin}/api/scenarios/${encodeURIComponent(id)}/stop`, {
      method: 'POST',
      headers: { 'x-operator': `traffic ${runId}`, ...OPERATOR_HEADERS },
    }).catch(() => undefined);
  }

  results.sort((a, b) => a.index - b.index);
  const summary = summarize(
    { run: runId, profile: scheduler.current.name, mode, seconds: (Date.now() - startedAt) / 1000 },
    results,
    sequence.filter((line) => line !== undefined),
    options.maxFailureShare ?? 0.2,
  );
  if (mode === 'http') {
    const seconds = Math.max(0.001, summary.seconds);
    summary.http = {
      requests: httpEnv.counts.requests,
      perSecond: httpEnv.counts.requests / seconds,
      errors: httpEnv.counts.errors,
      p50Ms: roundMs(percentile(httpEnv.latencies, 50)),
      p95Ms: roundMs(percentile(httpEnv.latencies, 95)),
      p99Ms: roundMs(percentile(httpEnv.latencies, 99)),
    };
  } else if (options.checkIntake !== false) {
    const ids = new Set(
      results.flatMap((result) => (result.rumSessionId ? [result.rumSessionId] : [])),
    );
    const seen = await intakeSessions(origin, ids, 15_000);
    if (seen) {
      summary.intakeSessions = seen.length;
      summary.intakeWithFlags = seen.filter(
        (session) => Object.keys(session.flags).length > 0,
      ).length;
      summary.intakeWithShopper = seen.filter((session) => session.shopper !== null).length;
    }
  }
  return summary;
}

const roundMs = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
