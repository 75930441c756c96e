import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = path.join(WEB_ROOT, 'build', 'server-main', 'main.js');
// Spare ports beside this run's web server (playwright.config.ts), so parallel runs do not collide
// (the monitoring spec's second api takes E2E_API_PORT + 7, the others higher offsets).
const basePort = Number(process.env.E2E_WEB_PORT ?? 3100);
const [downApiPort, brokenProfilePort, badRatePort] = [basePort + 31, basePort + 32, basePort + 33];

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs the built web server alone with the given environment. */
function startWebServer(env: Record<string, string>): Started {
  let output = '';
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      if (signal) output += `\n(ended by signal ${signal})`;
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

test.describe('the web server on its own', () => {
  test('answers 500 "Internal Server Error" with the reason when the api is down', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/status of 500/);
    // Port 9 (discard) is closed on loopback: every api call fails to connect.
    const server = startWebServer({ PORT: String(downApiPort), API_URL: 'http://127.0.0.1:9' });
    try {
      // Loading the server build takes seconds on a busy machine.
      await expect.poll(() => server.output(), { timeout: 30_000 }).toContain('listening');
      const response = await page.goto(`http://localhost:${downApiPort}/department/tables`);
      expect(response?.status()).toBe(500);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
      await expect(page.getByText(/The shop api could not be reached/)).toBeVisible();
      expect(await response?.text()).not.toMatch(/at .+\.js:\d+/);
    } finally {
      // The page first: its scripts' requests to a server being stopped would fail in its
      // console (ERR_CONNECTION_RESET, REFUSED) after the test.
      await page.close();
      server.child.kill('SIGTERM');
      expect(
        await server.exited,
        `exit code of the web server; its output:\n${server.output()}`,
      ).toBe(0);
    }
  });

  test('refuses to start with an invalid deployment profile, naming profile and field', async () => {
    const profiles = JSON.parse(
      fs.readFileSync(path.join(WEB_ROOT, 'app', 'config', 'deployment-profiles.json'), 'utf8'),
    ) as Record<string, Record<string, unknown>>;
    const key = Object.keys(profiles).find((name) => name !== 'local') ?? 'local';
    delete profiles[key]!.clientToken;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-profiles-'));
    const file = path.join(dir, 'profiles.json');
    fs.writeFileSync(file, JSON.stringify(profiles));

    const server = startWebServer({
      PORT: String(brokenProfilePort),
      DEPLOYMENT_PROFILES_FILE: file,
    });
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toContain(`"${key}"`);
    expect(server.output()).toContain('clientToken');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an invalid sample rate in SHOWROOM_PROFILES_JSON stops start-up too', async () => {
    const server = startWebServer({
      PORT: String(badRatePort),
      SHOWROOM_PROFILES_JSON: JSON.stringify({ local: { sessionSampleRate: 150 } }),
    });
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toContain('"local"');
    expect(server.output()).toContain('sessionSampleRate');
  });
});
