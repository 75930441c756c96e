import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { API_URL } from './shop-helpers';
import type { SessionDetail, TimelineEntry } from '@showroom/contracts/monitoring';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The api's session inspector answer, typed from the contract. */
export type InspectedEntry = TimelineEntry;
export type InspectedSession = SessionDetail;

/**
 * Keeps the page's random draws inside [0.34, 0.65]: never anonymous (under 0.2), instant_pay
 * variant a on /cart (R-4.7), yet still random, so the ids the monitoring SDK makes from
 * Math.random stay unique (a fixed value would give every page the same session and view ids).
 */
export async function drawWithoutAnonymity(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const random = Math.random.bind(Math);
    Math.random = () => 0.34 + 0.31 * random();
  });
}

/**
 * Keeps the page's random draws under 0.19, so the monitoring user draw makes the start
 * anonymous (under 1 in 5, R-4.14) while a shopper identity is still drawn and stored; still
 * random, for the SDK's ids.
 */
export async function drawAnonymously(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const random = Math.random.bind(Math);
    Math.random = () => 0.19 * random();
  });
}

/** The RUM session id of the page, once the monitoring SDK has started (start-up step 5). */
export async function rumSessionId(page: Page): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(
      async () => {
        id = await page.evaluate(() => window.DD_RUM?.getInternalContext()?.session_id);
        return id;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return id!;
}

/**
 * Leaves the page as a shopper closing the tab does: `beforeunload` and `pagehide` run and the
 * SDK flushes with `sendBeacon`. (Navigating to about:blank instead keeps the page in the
 * back/forward cache, where the SDK's exit flush waits until the page is evicted.)
 */
export async function leavePage(page: Page): Promise<void> {
  await page.close({ runBeforeUnload: true });
}

/**
 * The session as the api's inspector answers it (this run's api, or `apiUrl`), or null while
 * the api does not know it.
 */
export async function inspectSession(
  request: APIRequestContext,
  sessionId: string,
  apiUrl: string = API_URL,
): Promise<InspectedSession | null> {
  const response = await request.get(`${apiUrl}/monitoring/sessions/${sessionId}`);
  if (response.status() === 404) return null;
  expect(response.status(), `GET /monitoring/sessions/${sessionId}`).toBe(200);
  return (await response.json()) as InspectedSession;
}

/** The intake track of a request URL (`/intake?ddforward=/api/v2/rum?…` → `rum`), or null. */
export function intakeTrack(url: string): string | null {
  const forward = new URL(url).searchParams.get('ddforward');
  return forward?.match(/^\/api\/v2\/([a-z-]+)/)?.[1] ?? null;
}

/** The fields the tests read of a RUM event as the browser sent it. */
export interface SentRumEvent {
  type: string;
  session?: { id?: string };
  view?: { id?: string };
  usr?: { id?: unknown; anonymous_id?: unknown };
  _dd?: { document_version?: number };
}

/**
 * Collects the events of every RUM batch the page sends to the intake, read from the requests
 * themselves (the api keeps only the highest document version of a view): NDJSON, deflated
 * when the forwarded path says `dd-evp-encoding=deflate`.
 */
export function captureSentRumEvents(page: Page): SentRumEvent[] {
  const events: SentRumEvent[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.includes('/intake?') || intakeTrack(url) !== 'rum') return;
    const body = request.postDataBuffer();
    if (body === null) return;
    const deflated = new URL(url).searchParams
      .get('ddforward')
      ?.includes('dd-evp-encoding=deflate');
    const text = (deflated ? inflateSync(body) : body).toString('utf8');
    for (const line of text.split('\n')) {
      if (line.trim() !== '') events.push(JSON.parse(line) as SentRumEvent);
    }
  });
  return events;
}

/**
 * Hides the page as a shopper switching tabs does, which makes the monitoring SDK send what it
 * holds. `__ddIsTrusted` lets the SDK take the synthetic event whatever the profile's
 * allowUntrustedEvents. Can be repeated: each time sends what was collected since.
 */
export async function hidePage(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(Object.assign(new Event('visibilitychange'), { __ddIsTrusted: true }));
  });
}

/**
 * Waits for the monitoring SDK to start, then at once hides the page, so the SDK sends its
 * batch before its first view update (throttled by 3 s) replaces the view's first version in
 * it. Answers the session and the first view's id.
 */
export async function flushOnceStarted(page: Page): Promise<{ sessionId: string; viewId: string }> {
  const started = await page.waitForFunction(
    () => {
      const context = window.DD_RUM?.getInternalContext();
      return context?.session_id !== undefined && context.view !== undefined
        ? { sessionId: context.session_id, viewId: context.view.id }
        : undefined;
    },
    undefined,
    { timeout: 15_000 },
  );
  const ids = await started.jsonValue();
  await hidePage(page);
  // waitForFunction resolves on a truthy answer only.
  if (ids === undefined) throw new Error('the monitoring SDK answered no session');
  return ids;
}

/** Hides the page until it has sent a resource event of the session (R-4.14: early resources). */
export async function flushUntilResourceSent(
  page: Page,
  sent: readonly SentRumEvent[],
  sessionId: string,
): Promise<void> {
  await expect
    .poll(
      async () => {
        await hidePage(page);
        return sent.some((event) => event.type === 'resource' && event.session?.id === sessionId);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** The lowest `_dd.document_version` the page sent of a view, once it sent one. */
export async function firstSentVersionOfView(
  sent: readonly SentRumEvent[],
  viewId: string,
): Promise<SentRumEvent> {
  const versions = () => sent.filter((event) => event.type === 'view' && event.view?.id === viewId);
  await expect.poll(() => versions().length, { timeout: 15_000 }).toBeGreaterThan(0);
  return versions().reduce((lowest, event) =>
    (event._dd?.document_version ?? Infinity) < (lowest._dd?.document_version ?? Infinity)
      ? event
      : lowest,
  );
}

/** Sample shopper ids (data/shoppers/*.json) plus the fixed demo user (rumdev). */
export function sampleShopperIds(): Set<string> {
  const folder = path.join(REPO_ROOT, 'data/shoppers');
  const ids = new Set<string>(['dec0de01']);
  for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    const list = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) as { id: string }[];
    for (const shopper of list) ids.add(shopper.id);
  }
  return ids;
}

export interface SecondServer {
  url: string;
  /** Every JSON log line it printed so far. */
  logLines(): Record<string, unknown>[];
  stop(): Promise<void>;
  /** Ends it with SIGKILL, as a crash would. */
  kill(): Promise<void>;
}

export type SecondApi = SecondServer;

export interface SecondApiOptions {
  /** PostgreSQL instead of a SQLite file in its own data folder (the database must exist). */
  databaseUrl?: string;
  /** Flag definitions (a UFC file or folder) instead of apps/api/flags: FLAGS_PATH. */
  flagsPath?: string;
  /** More environment: the SESSION_SECRET replicas share, OPERATOR_TOKEN, ALLOWED_ORIGINS. */
  env?: Record<string, string>;
}

/**
 * A second api process (the built one) on its own port and data folder, logging at info, so a
 * test can read its log lines: the e2e web server's own api logs at warn into Playwright's
 * output, which tests cannot read. With `databaseUrl`, on PostgreSQL (migrated and seeded at
 * start, as on SQLite).
 */
export async function startSecondApi(
  port: number,
  webOrigin: string,
  options: SecondApiOptions = {},
): Promise<SecondApi> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-e2e-api-'));
  const server = await startServer(
    'second api',
    'apps/api/dist/server.js',
    `http://127.0.0.1:${port}`,
    '/health',
    {
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      FLAGS_PATH: options.flagsPath ?? '',
      LOG_LEVEL: 'info',
      CORS_ORIGINS: webOrigin,
      NODE_ENV: 'test',
      ...options.env,
    },
  );
  return {
    ...server,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second web server (the built one) whose server rendering and `/api` proxy use `apiUrl`:
 * with a second api, a whole page — its server-rendered content and its browser calls — runs
 * on that api's database.
 */
export async function startSecondWeb(
  port: number,
  apiUrl: string,
  env: Record<string, string> = {},
): Promise<SecondServer> {
  return startServer(
    'second web server',
    'apps/web/build/server-main/main.js',
    `http://127.0.0.1:${port}`,
    '/',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      API_URL: apiUrl,
      NODE_ENV: 'production',
      ...env,
    },
  );
}

/** Starts a built server of the repository and waits until `healthPath` answers 200. */
async function startServer(
  name: string,
  script: string,
  url: string,
  healthPath: string,
  env: Record<string, string>,
): Promise<SecondServer> {
  // A server left running on the port (a test run killed before its clean-up) would answer the
  // health check below with another build and database: refuse instead of testing it.
  const occupied = await fetch(`${url}${healthPath}`).then(
    () => true,
    () => false,
  );
  if (occupied) throw new Error(`${name}: something already answers on ${url}; stop it first`);
  const child = spawn(process.execPath, [path.join(REPO_ROOT, script)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never outlive the test worker, even when it ends without running its clean-up.
  const killChild = () => child.kill('SIGTERM');
  process.once('exit', killChild);
  void exited.then(() => process.off('exit', killChild));
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited:\n${output}`);
        return fetch(`${url}${healthPath}`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 30_000 },
    )
    .toBe(200);
  return {
    url,
    logLines: () =>
      output.split('\n').flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return []; // not JSON, or the last line still being written
        }
      }),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Gives the calling spec file its own api and web server (started before its tests, stopped
 * after them), for tests that change shared state such as flags.
 */
export function withSecondShop(apiPort: number, webPort: number): void {
  let stop: (() => Promise<void>) | undefined;
  test.beforeAll(async () => {
    const api = await startSecondApi(apiPort, `http://127.0.0.1:${webPort}`);
    try {
      const web = await startSecondWeb(webPort, `http://127.0.0.1:${apiPort}`);
      stop = async () => {
        await web.stop();
        await api.stop();
      };
    } catch (error) {
      await api.stop();
      throw error;
    }
  });
  test.afterAll(async () => {
    await stop?.();
  });
}
