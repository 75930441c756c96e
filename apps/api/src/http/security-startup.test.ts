import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPERATOR_TOKEN_ENV } from '@showroom/contracts/security';
import { killAll, spawnApi } from '../test/api-process.js';

/**
 * The api's start-up warning (docs/reliability.md "Security"): listening beyond loopback
 * without OPERATOR_TOKEN is said once, at start; with a token or on loopback it is not.
 */
const START_TIMEOUT_MS = 90_000;

const dirs: string[] = [];

afterEach(async () => {
  await killAll();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the api on a free port and answers its output once it says whether routes are open. */
async function startupOutput(env: Record<string, string>): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-startup-'));
  dirs.push(dataDir);
  const api = spawnApi({
    API_PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'info',
    ...env,
  });
  await vi.waitFor(
    () => {
      if (api.child.exitCode !== null) throw new Error(`api exited early:\n${api.output()}`);
      if (!/operator routes/.test(api.output())) throw new Error('not started yet');
    },
    { timeout: START_TIMEOUT_MS, interval: 100 },
  );
  return api.output();
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
