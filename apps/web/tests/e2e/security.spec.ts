import type { Page, Response } from '@playwright/test';
import { API_CONTENT_SECURITY_POLICY, OPERATOR_COOKIE } from '@showroom/contracts/security';
import { expect, test } from './fixtures';
import {
  drawWithoutAnonymity,
  intakeTrack,
  startSecondApi,
  startSecondWeb,
} from './monitoring-helpers';
import { addToCart, startupDone } from './shop-helpers';

// docs/reliability.md "Security": the pages' Content-Security-Policy allows exactly what the
// shop uses (no violation on its key pages, monitoring still reaches the intake), every answer
// carries the security headers, cross-site writes are refused, error answers show no
// internals, and the operator's pages work for a presenter with the token.

const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
const API_PORT = Number(process.env.E2E_API_PORT ?? 3101);
/** Ports reserved for this file's own shop (with OPERATOR_TOKEN). */
const OPERATOR_API_PORT = API_PORT + 41;
const OPERATOR_WEB_PORT = API_PORT + 42;
const TOKEN = 'e2e-operator-token-7f3a9c';

/** A product the key-pages visit shows and puts in the cart (never bought). */
const LAMP = { id: 53, department: 'lighting', edition: 'standard' } as const;

/**
 * Collects CSP violations of the page's current document: `securitypolicyviolation` events and
 * the browser's "Refused to …" console messages.
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const messages: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Refused to|Content Security Policy/i.test(text)) messages.push(text);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.effectiveDirective} blocked ${event.blockedURI}`),
    );
  });
  return async () => [
    ...messages,
    ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
  ];
}

function nonceOf(policy: string | undefined): string {
  const nonce = policy?.match(/'nonce-([^']+)'/)?.[1];
  expect(nonce, policy).toBeTruthy();
  return nonce!;
}

test.describe('content security policy', () => {
  test('the key pages load with no CSP violation, and monitoring still reaches the intake', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const violations = await watchCsp(page);
    await drawWithoutAnonymity(page);
    const tracks = new Set<string>();
    page.on('response', (response: Response) => {
      const track = response.url().includes('/api/intake?') ? intakeTrack(response.url()) : null;
      if (track && response.ok()) tracks.add(track);
    });

    const visit = async (path: string, ready: () => Promise<void>) => {
      const answer = await page.goto(path);
      expect(answer?.status(), path).toBe(200);
      expect(answer?.headers()['content-security-policy'], path).toContain("'nonce-");
      await startupDone(page);
      await ready();
      expect(await violations(), path).toEqual([]);
    };

    await visit('/', () => expect(page.locator('main')).toBeVisible());
    await visit(`/department/${LAMP.department}`, () =>
      expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
    );
    await addToCart(page, LAMP, 1);
    expect(await violations(), 'product page').toEqual([]);
    await visit('/cart', () => expect(page.getByTestId('cart')).toBeVisible());
    await visit('/checkout', () => expect(page.getByTestId('checkout')).toBeVisible());
    await visit('/video-quality-monitoring-demo', async () => {
      await page.getByTestId('video-play').click();
      // The player (shaka-player, DASH) plays from a blob: MediaSource URL.
      await expect
        .poll(() => page.evaluate(() => document.querySelector('video')?.currentTime ?? 0), {
          timeout: 30_000,
        })
        .toBeGreaterThan(0.5);
      expect(await page.evaluate(() => document.querySelector('video')?.currentSrc ?? '')).toMatch(
        /^blob:/,
      );
    });
    await visit('/flags', () =>
      expect(page.getByRole('heading', { level: 1 })).toHaveText(/flags/i),
    );
    await visit('/inspector', () => expect(page.getByTestId('inspector-summary')).toBeVisible());
    // Leaving the page flushes the SDK's batches; session replay is compressed in a blob: worker.
    await page.goto('/');
    await startupDone(page);
    await expect
      .poll(() => [...tracks].sort(), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(['replay', 'rum']));
    expect(await violations(), 'after the intake').toEqual([]);
  });

  test('every inline script carries the response nonce, a new one per response, cached pages too', async ({
    request,
  }) => {
    for (const path of ['/', '/department/lighting', '/department/lighting']) {
      const first = await request.get(path);
      const second = await request.get(path);
      const nonces = [first, second].map((answer) =>
        nonceOf(answer.headers()['content-security-policy']),
      );
      expect(nonces[0]).not.toBe(nonces[1]);
      for (const [index, answer] of [first, second].entries()) {
        const html = await answer.text();
        const scripts = html.match(/<script\b[^>]*>/g) ?? [];
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonces[index]}"`);
      }
    }
    // The department page came from the page cache at least once, with its own nonce.
    const cached = await request.get('/department/lighting');
    expect(cached.headers()['x-showroom-cache']).toBe('hit');
    expect(await cached.text()).toContain(
      `nonce="${nonceOf(cached.headers()['content-security-policy'])}"`,
    );
  });

  test('pages and api answers carry the security headers', async ({ request }) => {
    const page = await request.get('/');
    const headers = page.headers();
    const policy = headers['content-security-policy']!;
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      'worker-src',
      'media-src',
    ]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options']).toBe('DENY');

    for (const path of ['/api/health', '/api/departments', '/api/no-such-route']) {
      const api = await request.get(path);
      expect(api.headers()['content-security-policy'], path).toBe(API_CONTENT_SECURITY_POLICY);
      expect(api.headers()['x-content-type-options'], path).toBe('nosniff');
      expect(api.headers()['x-frame-options'], path).toBe('DENY');
    }
    const asset = await request.get('/favicon.png');
    expect(asset.headers()['x-content-type-options']).toBe('nosniff');
  });
});

test.describe('cross-site writes', () => {
  test('a write through /api from another site is refused with 403 CROSS_SITE_REQUEST', async ({
    request,
  }) => {
    const refused = await request.post('/api/cart/items', {
      headers: { origin: 'https://evil.example' },
      data: { productId: 1, quantity: 1 },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'CROSS_SITE_REQUEST' } });

    // The page's own origin (any host and port: the proxy forwards the browser's host).
    const own = await request.post('/api/cart/items', {
      headers: { origin: `http://localhost:${WEB_PORT}` },
      data: {},
    });
    expect(own.status()).toBe(400);
    expect(await own.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  test('a page form posted from another site is refused too', async ({ request }) => {
    const refused = await request.post('/scenarios', {
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      data: 'intent=start&id=slow-catalog',
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'CROSS_SITE_REQUEST' } });
  });
});

test.describe('error answers show no internals', () => {
  test('a broken address and an unknown page answer without stack or source paths', async ({
    request,
    consoleWatch,
  }) => {
    consoleWatch.allow(/404/);
    for (const path of ['/profiles/%E0%A4%A.json', '/department/%E0%A4%A', '/no/such/page']) {
      const answer = await request.get(path);
      expect(answer.status(), path).toBeGreaterThanOrEqual(400);
      const body = await answer.text();
      expect(body, path).not.toMatch(/\bat .+:\d+:\d+|node_modules|\.ts:\d+|URIError/);
    }
  });
});

test.describe('operator token', () => {
  // One shop for the group: its tests run in one worker, one after the other.
  test.describe.configure({ mode: 'serial' });
  const webUrl = `http://127.0.0.1:${OPERATOR_WEB_PORT}`;
  let stop: (() => Promise<void>) | undefined;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const api = await startSecondApi(OPERATOR_API_PORT, webUrl, {
      env: { OPERATOR_TOKEN: TOKEN },
    });
    try {
      const web = await startSecondWeb(OPERATOR_WEB_PORT, api.url, { OPERATOR_TOKEN: TOKEN });
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

  test('the api refuses operator routes without the token and answers with it', async ({
    request,
  }) => {
    const missing = await request.get(`${webUrl}/api/flags`);
    expect(missing.status()).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { code: 'OPERATOR_TOKEN_MISSING' } });
    const wrong = await request.get(`${webUrl}/api/flags`, {
      headers: { authorization: 'Bearer not-the-token' },
    });
    expect(await wrong.json()).toMatchObject({ error: { code: 'OPERATOR_TOKEN_INVALID' } });
    const right = await request.get(`${webUrl}/api/flags`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(right.status()).toBe(200);
    // The shop itself stays open.
    expect((await request.get(`${webUrl}/api/departments`)).status()).toBe(200);
  });

  test('a presenter signs in once and the operator pages work', async ({ page, consoleWatch }) => {
    test.setTimeout(90_000);
    consoleWatch.allow(/401/);
    const first = await page.goto(`${webUrl}/flags`);
    expect(first?.status()).toBe(401);
    await page.getByLabel('Operator token').fill('not-the-token');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toContainText('not valid');

    await page.getByLabel('Operator token').fill(TOKEN);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(`${webUrl}/flags`);
    await startupDone(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/flags/i);
    await expect(page.getByTestId('flags-error')).toHaveCount(0);

    const cookie = (await page.context().cookies(webUrl)).find((c) => c.name === OPERATOR_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    // The browser's own calls through /api carry the cookie's token to the api.
    expect((await page.request.get(`${webUrl}/api/flags`)).status()).toBe(200);

    for (const [path, ready] of [
      ['/inspector', 'inspector-summary'],
      ['/outbox', 'outbox'],
      ['/demo', 'demo-page'],
    ] as const) {
      const answer = await page.goto(`${webUrl}${path}`);
      expect(answer?.status(), path).toBe(200);
      await startupDone(page);
      await expect(page.getByTestId(ready), path).toBeVisible();
    }
  });

  test('?operator=<token> signs in and leaves the address without the token', async ({ page }) => {
    await page.goto(`${webUrl}/outbox?operator=${TOKEN}`);
    await expect(page).toHaveURL(`${webUrl}/outbox`);
    await startupDone(page);
    await expect(page.getByTestId('outbox')).toBeVisible();
  });
});
