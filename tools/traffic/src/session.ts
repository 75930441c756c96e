import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Scenario } from '@showroom/contracts/scenarios';
import { TRAFFIC_STORAGE_KEY, type TrafficJourney } from '@showroom/contracts/traffic';
import type { SessionPlan } from './planner.js';
import { JOURNEYS, type Shopper } from './shop-journeys.js';
import { OPERATOR_COOKIE, OPERATOR_TOKEN_ENV } from '@showroom/contracts/security';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** What one session did. */
export interface SessionResult {
  index: number;
  journey: TrafficJourney;
  scenarioId: string | null;
  ok: boolean;
  /** Stopped by Ctrl-C or the end of the run, not failed. */
  aborted: boolean;
  error: string | null;
  converted: boolean;
  leftAt: string | null;
  returning: boolean;
  /** Full page loads: navigation start to the end of the load event, ms. */
  pageLoadsMs: number[];
  rumSessionId: string | null;
  /** The variant an `experiment` profile's session was shown, or null. */
  experimentVariant: string | null;
  startedAt: number;
  durationMs: number;
}

/** The monitoring SDK's session cookie and local-storage fallback (`_dd_s`, `_dd_s_v2`). */
const isRumSession = (name: string) => name.startsWith('_dd_s');

/**
 * Browser states kept from finished sessions: returning visitors come back with one, keeping
 * their stored identity and sign-in, but not the monitoring session (a visitor returns after it
 * expired): each generated session is its own monitoring session.
 */
export class StatePool {
  private states: { state: StorageState; signedIn: boolean }[] = [];
  constructor(private readonly limit = 50) {}
  add(state: StorageState, signedIn: boolean): void {
    this.states.push({
      state: {
        ...state,
        cookies: state.cookies.filter((cookie) => !isRumSession(cookie.name)),
        origins: state.origins.map((origin) => ({
          ...origin,
          localStorage: origin.localStorage.filter((entry) => !isRumSession(entry.name)),
        })),
      },
      signedIn,
    });
    if (this.states.length > this.limit) this.states.shift();
  }
  pick(draw: number): StorageState | undefined {
    if (this.states.length === 0) return undefined;
    return this.states[Math.min(this.states.length - 1, Math.floor(draw * this.states.length))]!
      .state;
  }
  get size(): number {
    return this.states.length;
  }
}

export interface SessionEnvironment {
  origin: string;
  profileName: string;
  runId: string;
  departments: readonly string[];
  scenarios: ReadonlyMap<string, Scenario>;
  states: StatePool;
  /** Aborts the session (Ctrl-C): its context is closed. */
  signal: AbortSignal;
  /** Waits think times (tests shorten them). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Whole session limit, ms. */
  sessionTimeoutMs: number;
}

/** The error's first line, what Playwright was waiting for, and the page it was on. */
function errorText(error: unknown, page: Page | undefined): string {
  const lines = (error instanceof Error ? error.message : String(error))
    // eslint-disable-next-line no-control-regex -- Playwright colours its call log
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n');
  const waiting = lines.find((line) => line.includes('waiting for '))?.trim();
  let where: string | undefined;
  try {
    where = page ? new URL(page.url()).pathname : undefined;
  } catch {
    // about:blank or a closed page
  }
  return [lines[0], waiting, where && `on ${where}`].filter(Boolean).join(' · ').slice(0, 300);
}

async function readRumSessionId(page: Page, timeoutMs: number): Promise<string | null> {
  try {
    const handle = await page.waitForFunction(
      () =>
        (
          window as unknown as {
            DD_RUM?: { getInternalContext(): { session_id?: string } | undefined };
          }
        ).DD_RUM?.getInternalContext()?.session_id,
      undefined,
      { timeout: timeoutMs },
    );
    return ((await handle.jsonValue()) as string | undefined) ?? null;
  } catch {
    return null;
  }
}

/**
 * Makes the monitoring SDK send what it holds, as a shopper switching tabs does, and waits (a
 * little) for the intake to take it.
 */
async function flushMonitoring(page: Page): Promise<void> {
  const sent = page
    .waitForResponse((response) => response.url().includes('/intake?'), { timeout: 5_000 })
    .catch(() => undefined);
  await page
    .evaluate(() => {
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => 'hidden',
      });
      document.dispatchEvent(Object.assign(new Event('visibilitychange'), { __ddIsTrusted: true }));
    })
    .catch(() => undefined);
  await sent;
}

/** A session's result before it runs: nothing done yet. */
export function newSessionResult(plan: SessionPlan, startedAt: number): SessionResult {
  return {
    index: plan.index,
    journey: plan.journey,
    scenarioId: plan.scenarioId,
    ok: false,
    aborted: false,
    error: null,
    converted: false,
    leftAt: null,
    returning: false,
    pageLoadsMs: [],
    rumSessionId: null,
    experimentVariant: null,
    startedAt,
    durationMs: 0,
  };
}

/** One shopper session in its own browser context, as its plan says. */
export async function runBrowserSession(
  browser: Browser,
  plan: SessionPlan,
  env: SessionEnvironment,
): Promise<SessionResult> {
  const startedAt = Date.now();
  const result = newSessionResult(plan, startedAt);
  const stored = plan.returning ? env.states.pick(plan.returningPick) : undefined;
  result.returning = stored !== undefined;
  let context: BrowserContext | undefined;
  const onAbort = () => void context?.close().catch(() => undefined);
  env.signal.addEventListener('abort', onAbort, { once: true });
  try {
    context = await browser.newContext({
      viewport: plan.device.viewport,
      ...(plan.device.userAgent ? { userAgent: plan.device.userAgent } : {}),
      isMobile: plan.device.isMobile ?? false,
      hasTouch: plan.device.hasTouch ?? plan.device.isMobile ?? false,
      deviceScaleFactor: plan.device.deviceScaleFactor ?? 1,
      locale: plan.locale.locale,
      ...(plan.locale.timezone ? { timezoneId: plan.locale.timezone } : {}),
      ...(stored ? { storageState: stored } : {}),
    });
    if (env.signal.aborted) throw new Error('aborted');
    // With OPERATOR_TOKEN set, the outbox page (sign-up codes) and scenario switches need the
    // operator cookie a presenter gets from `?operator=<token>` (docs/reliability.md "Security").
    const operatorToken = process.env[OPERATOR_TOKEN_ENV];
    if (operatorToken) {
      await context.addCookies([
        {
          name: OPERATOR_COOKIE,
          value: operatorToken,
          url: env.origin,
          httpOnly: true,
          sameSite: 'Strict',
        },
      ]);
    }
    // The monitoring chunk sends this as the global context `traffic` (profile and run).
    await context.addInitScript(
      ([key, value]) => {
        try {
          sessionStorage.setItem(key, value);
        } catch {
          // about:blank and opaque origins have no storage
        }
      },
      [TRAFFIC_STORAGE_KEY, JSON.stringify({ profile: env.profileName, run: env.runId })] as const,
    );
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('load', () => {
      page
        .evaluate(() => {
          const entry = performance.getEntriesByType('navigation')[0] as
            PerformanceNavigationTiming | undefined;
          return entry && entry.loadEventEnd > 0 ? entry.loadEventEnd - entry.startTime : null;
        })
        .then((ms) => (ms !== null ? void result.pageLoadsMs.push(Math.round(ms)) : undefined))
        .catch(() => undefined);
    });
    const network = plan.network;
    if (network.downloadKbps || network.uploadKbps || network.latencyMs) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: network.latencyMs ?? 0,
        downloadThroughput: network.downloadKbps ? (network.downloadKbps * 1024) / 8 : -1,
        uploadThroughput: network.uploadKbps ? (network.uploadKbps * 1024) / 8 : -1,
      });
    }
    let think = 0;
    let choice = 0;
    const switches = { ...plan.switches };
    if (plan.journey === 'checkout-single-page') switches.new_checkout_flow = 'true';
    const shopper: Shopper = {
      page,
      origin: env.origin,
      departments: env.departments,
      uniqueId: `${env.runId}-${plan.index}`,
      scenario: plan.scenarioId ? (env.scenarios.get(plan.scenarioId) ?? null) : null,
      think: () => env.sleep(plan.thinkTimesMs[think++ % plan.thinkTimesMs.length]!, env.signal),
      leavesAt: (step) => plan.leavesAt === step,
      choose: (entries) =>
        entries[Math.floor(plan.choices[choice++ % plan.choices.length]! * entries.length)]!,
      withSwitches: (path) => {
        const pairs = Object.entries(switches);
        if (pairs.length === 0) return path;
        const query = new URLSearchParams(pairs).toString();
        return `${path}${path.includes('?') ? '&' : '?'}${query}`;
      },
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`session took over ${env.sessionTimeoutMs / 1000} s`)),
        env.sessionTimeoutMs,
      );
    });
    try {
      const outcome = await Promise.race([JOURNEYS[plan.journey](shopper), timeout]);
      result.converted = outcome.converted;
      result.leftAt = outcome.leftAt;
      result.ok = true;
    } finally {
      clearTimeout(timer);
    }
    result.rumSessionId = await readRumSessionId(page, 10_000);
    await flushMonitoring(page);
    if (plan.journey !== 'scenario') {
      env.states.add(await context.storageState(), plan.journey === 'signup-loyalty');
    }
    await page.close({ runBeforeUnload: true });
  } catch (error) {
    const page = context?.pages()[0];
    if (env.signal.aborted) result.aborted = true;
    else result.error = errorText(error, page);
    result.ok = false;
    if (page && !env.signal.aborted) {
      result.rumSessionId ??= await readRumSessionId(page, 1_000);
      await flushMonitoring(page);
    }
  } finally {
    env.signal.removeEventListener('abort', onAbort);
    await context?.close().catch(() => undefined);
    result.durationMs = Date.now() - startedAt;
  }
  return result;
}
