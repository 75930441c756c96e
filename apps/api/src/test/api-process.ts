import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { vi } from 'vitest';
import { REPO_ROOT } from '../config.js';

/**
 * The real api as a child process: server.ts from its TypeScript source under tsx's loader (in
 * this process, not through the tsx CLI, so a signal reaches the server itself), as
 * `npm run dev` runs it. Every process started here is SIGKILLed by `killAll()` and when the
 * test worker exits.
 */
const require = createRequire(import.meta.url);
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;
const SERVER_SOURCE = path.join(REPO_ROOT, 'apps/api/src/server.ts');

export interface ApiProcess {
  url: string;
  pid: number;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  /** Its output (stdout and stderr; the last megabyte). */
  output(): string;
  /** Whether it has not exited yet. */
  running(): boolean;
  /** SIGKILL, as a crash or an OOM kill would end it; resolves once it has exited. */
  kill(): Promise<void>;
  /** SIGTERM (a clean shutdown); resolves once it has exited. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** SIGKILLs every api this worker started and waits for them to exit. */
export async function killAll(): Promise<void> {
  const children = [...running];
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map(exitOf));
}

process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The first port from `first` to `last` nothing listens on (127.0.0.1). */
export async function freePort(first: number, last: number): Promise<number> {
  for (let candidate = first; candidate <= last; candidate += 1) {
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(candidate, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return candidate;
  }
  throw new Error(`no free port from ${first} to ${last}`);
}

/** A started api child process: its output and its end. */
export interface SpawnedApi {
  child: ChildProcess;
  exited: Promise<void>;
  output(): string;
}

/**
 * Spawns the api with `env` over the test defaults (no retention job, no OTLP, no SMTP, open
 * operator routes on loopback); it is SIGKILLed by `killAll()` and when the worker exits.
 */
export function spawnApi(env: Record<string, string>): SpawnedApi {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', TSX_LOADER, SERVER_SOURCE],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        OPERATOR_TOKEN: '',
        RETENTION_INTERVAL_MINUTES: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
        SMTP_URL: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  const exited = exitOf(child).then(() => void running.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-1_000_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, exited, output: () => output };
}

/** Starts the api on 127.0.0.1:`port` (spawnApi); resolves once /health answers 200. */
export async function startApiProcess(
  port: number,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ApiProcess> {
  const { child, exited, output } = spawnApi({
    API_PORT: String(port),
    API_HOST: '127.0.0.1',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await vi.waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`api exited early:\n${output()}`);
        const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
        if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
      },
      { timeout: timeoutMs, interval: 100 },
    );
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
  return {
    url,
    pid: child.pid!,
    exited,
    output,
    running: () => child.exitCode === null && child.signalCode === null,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(child.pid!, 'SIGKILL');
      }
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
