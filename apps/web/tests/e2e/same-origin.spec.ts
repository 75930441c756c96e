import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { API_URL } from './shop-helpers';
import { shopJourney } from './shop-journey';

// The default `local` profile sends the browser to the page's own origin (/api, proxied by the
// web server): the shop works under a host name no profile knows and on other ports.

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** The whole shop started a second time on other ports (overridable for CI). */
const OTHER_WEB_PORT = Number(process.env.E2E_OTHER_WEB_PORT ?? 4000);
const OTHER_API_PORT = Number(process.env.E2E_OTHER_API_PORT ?? 4001);
const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);

// In this file's browser, shop.test resolves to this machine (nothing else changes).
test.use({
  launchOptions: async ({ launchOptions }, provide) => {
    await provide({
      ...launchOptions,
      args: [...(launchOptions.args ?? []), '--host-resolver-rules=MAP shop.test 127.0.0.1'],
    });
  },
});

test.describe('under a host name no profile knows', () => {
  test('http://shop.test:<port> browses, orders, gets flags and is monitored', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await shopJourney(page, request, `http://shop.test:${WEB_PORT}`, API_URL);
  });
});

test.describe('the web server /api proxy', () => {
  test('answers the api uncompressed, as the api sent it', async ({ request }) => {
    const direct = await request.get(`${API_URL}/departments/chairs/products?limit=48`);
    const proxied = await request.get('/api/departments/chairs/products?limit=48', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(proxied.status()).toBe(200);
    expect(proxied.headers()['content-encoding']).toBeUndefined();
    expect(await proxied.json()).toEqual(await direct.json());
  });
});

/** The whole shop (`npm start`) on its own ports and data folder. */
interface Shop {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  dataDir: string;
}

function startShop(webPort: number, apiPort: number): Shop {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-e2e-ports-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(webPort),
    API_PORT: String(apiPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  // Nothing may point this shop elsewhere: only the ports differ from a plain `npm start`.
  for (const name of [
    'API_URL',
    'CORS_ORIGINS',
    'DATABASE_URL',
    'SHOWROOM_PROFILES_JSON',
    'DEPLOYMENT_PROFILES_FILE',
  ]) {
    delete env[name];
  }
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited, dataDir };
}

test.describe('started with other ports', () => {
  const webUrl = `http://localhost:${OTHER_WEB_PORT}`;
  const apiUrl = `http://localhost:${OTHER_API_PORT}`;
  let shop: Shop | undefined;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const started = startShop(OTHER_WEB_PORT, OTHER_API_PORT);
    shop = started;
    // Healthy once the web server answers and its /api reaches the api.
    await expect
      .poll(
        async () => {
          if (started.child.exitCode !== null) {
            throw new Error(`the shop exited early:\n${started.output()}`);
          }
          return fetch(`${webUrl}/api/health`).then(
            (response) => response.status,
            () => 0,
          );
        },
        { timeout: 170_000 },
      )
      .toBe(200);
  });

  test.afterAll(async () => {
    if (!shop) return;
    if (shop.child.exitCode === null) shop.child.kill('SIGTERM');
    const code = await shop.exited;
    fs.rmSync(shop.dataDir, { recursive: true, force: true });
    expect(code, shop.output()).toBe(0);
  });

  test(`PORT=${OTHER_WEB_PORT} API_PORT=${OTHER_API_PORT}: browses, orders, gets flags and is monitored`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await shopJourney(page, request, webUrl, apiUrl);
  });
});
