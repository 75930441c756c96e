import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPERATOR_TOKEN_ENV } from '@showroom/contracts/security';
import { REPO_ROOT } from '../config.js';

/**
 * The api's start-up warning (docs/reliability.md "Security"): listening beyond loopback
 * without OPERATOR_TOKEN is said once, at start; with a token or on loopback it is not.
 */
const require = createRequire(import.meta.url);
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;
const SERVER_SOURCE = path.join(REPO_ROOT, 'apps/api/src/server.ts');
const START_TIMEOUT_MS = 90_000;

const running: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the api on a free port and answers its output once it says whether routes are open. */
async function startupOutput(env: Record<string, string>): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-startup-'));
  dirs.push(dataDir);
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', TSX_LOADER, SERVER_SOURCE],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        API_PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
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
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await vi.waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`api exited early:\n${output}`);
      if (!/operator routes/.test(output)) throw new Error('not started yet');
    },
    { timeout: START_TIMEOUT_MS, interval: 100 },
  );
  return output;
}

describe('start-up warning about open operator routes', () => {
  it('warns when listening on 0.0.0.0 without OPERATOR_TOKEN', { timeout: 120_000 }, async () => {
    const output = await startupOutput({ API_HOST: '0.0.0.0' });
    expect(output).toContain(`listening on 0.0.0.0 without ${OPERATOR_TOKEN_ENV}`);
  });

  it('does not warn with OPERATOR_TOKEN set', { timeout: 120_000 }, async () => {
    const output = await startupOutput({ API_HOST: '0.0.0.0', OPERATOR_TOKEN: 'a-token' });
    expect(output).toContain('operator routes need the operator token');
    expect(output).not.toContain(`without ${OPERATOR_TOKEN_ENV}`);
  });

  it('does not warn on loopback', { timeout: 120_000 }, async () => {
    const output = await startupOutput({ API_HOST: '127.0.0.1' });
    expect(output).toContain('operator routes are open (listening on loopback only)');
    expect(output).not.toContain(`without ${OPERATOR_TOKEN_ENV}`);
  });
});
