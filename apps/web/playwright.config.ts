import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

/** Ports of the servers under test, away from a developer's own 3000/3001. */
export const E2E_WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
export const E2E_API_PORT = Number(process.env.E2E_API_PORT ?? 3101);

// A fresh database for every run, so stock and orders start from the seed.
const dataDir =
  process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-e2e-data-'));

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS],
  },
};

/** The specs of the `alone` project. */
const ALONE = /guarded-rollout\.spec\.ts$/;

export default defineConfig({
  testDir: './tests/e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://localhost:${E2E_WEB_PORT}`,
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'chromium', use: chromium, testIgnore: ALONE },
    // Specs that hold a promise stated in real minutes of the traffic generator's sessions (a
    // guard trips within 4 minutes of a fault): on two cores shared with another worker's
    // browsers the generator delivers a third of its sessions. npm test runs this project
    // after the other (scripts/test.mjs), with nothing beside it.
    { name: 'alone', use: chromium, testMatch: ALONE },
  ],
  webServer: {
    command: 'node ../../scripts/start.mjs',
    url: `http://localhost:${E2E_WEB_PORT}/`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_WEB_PORT),
      API_PORT: String(E2E_API_PORT),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // No profile override: the browser reaches this run's api through the web server's /api
      // proxy, as the default `local` profile does on any host and port.
    },
  },
});
