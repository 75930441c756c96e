import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_CONTENT_SECURITY_POLICY,
  OPERATOR_TOKEN_ENV,
  crossSiteReason,
  openOperatorRoutesWarning,
  operatorTokenMatches as tokenMatches,
} from '@showroom/contracts/security';
import { buildApp } from '../app.js';
import { createCatalogSeed } from '../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { seedCatalog } from '../modules/catalog/seed.js';
import { SESSION_COOKIE } from '@showroom/contracts/security';
import { OPERATOR_ROUTES } from './security.js';

const TOKEN = 'operator-token-for-tests-0123456789';

let testDb: TestDatabase;
let app: FastifyInstance;
let guarded: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  app = await buildApp({
    database: testDb.database,
    corsOrigins: ['https://partner.example'],
  });
  guarded = await buildApp({ database: testDb.database, operatorToken: TOKEN });
});

afterAll(async () => {
  await app.close();
  await guarded.close();
  await testDb.destroy();
});

/** A write that passes the cross-site check answers 400 (its body is empty), not 403. */
function addEmptyLine(headers: Record<string, string>) {
  return app.inject({ method: 'POST', url: '/cart/items', payload: {}, headers });
}

describe('security headers on every api answer', () => {
  it.each([
    ['a JSON answer', '/health', 200],
    ['an unknown route', '/no-such-route', 404],
    ['a validation error', '/products/not-a-number', 400],
  ])(
    '%s carries a strict CSP, nosniff, a referrer policy and no framing',
    async (_, url, status) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
    },
  );

  it("lets the api's own documentation page (Swagger UI) load its scripts, still unframed", async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('cross-site writes are refused', () => {
  it('refuses a write whose Origin is another site: 403 CROSS_SITE_REQUEST naming it', async () => {
    const res = await addEmptyLine({ origin: 'https://evil.example', host: 'shop.test:4000' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: {
        code: 'CROSS_SITE_REQUEST',
        message: expect.stringContaining('https://evil.example') as unknown as string,
      },
    });
  });

  it('refuses the same host on another port', async () => {
    const res = await addEmptyLine({ origin: 'http://shop.test:4001', host: 'shop.test:4000' });
    expect(res.statusCode).toBe(403);
  });

  it('accepts a write from its own origin, under any host name and port', async () => {
    for (const [origin, host] of [
      ['http://shop.test:4000', 'shop.test:4000'],
      ['http://127.0.0.1:3100', '127.0.0.1:3100'],
      ['http://localhost', 'localhost:80'],
      ['https://shop.example.com', 'shop.example.com'],
    ]) {
      const res = await addEmptyLine({ origin: origin!, host: host! });
      expect(res.statusCode, `${origin} on ${host}`).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    }
  });

  it("judges the browser's host that the web's /api proxy forwards in X-Forwarded-Host", async () => {
    const proxied = {
      host: '127.0.0.1:4001',
      'x-forwarded-host': 'shop.test:4000',
      'x-forwarded-proto': 'http',
    };
    expect((await addEmptyLine({ ...proxied, origin: 'http://shop.test:4000' })).statusCode).toBe(
      400,
    );
    expect((await addEmptyLine({ ...proxied, origin: 'http://127.0.0.1:4001' })).statusCode).toBe(
      403,
    );
  });

  it('accepts requests without Origin (curl, the web server, the traffic generator)', async () => {
    expect((await addEmptyLine({})).statusCode).toBe(400);
  });

  it('follows Sec-Fetch-Site: same-origin and none go on, cross-site without Origin does not', async () => {
    expect(
      (await addEmptyLine({ 'sec-fetch-site': 'same-origin', origin: 'http://renamed.example' }))
        .statusCode,
    ).toBe(400);
    expect((await addEmptyLine({ 'sec-fetch-site': 'none' })).statusCode).toBe(400);
    expect((await addEmptyLine({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect(
      (await addEmptyLine({ 'sec-fetch-site': 'cross-site', origin: 'null', host: 'shop.test' }))
        .statusCode,
    ).toBe(403);
  });

  it('accepts an allowed origin (CORS_ORIGINS, ALLOWED_ORIGINS)', async () => {
    const res = await addEmptyLine({ origin: 'https://partner.example', host: 'api.example' });
    expect(res.statusCode).toBe(400);
  });

  it('lets reads from another site through (CORS decides what the browser may read)', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses every write method', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const reason = crossSiteReason(
        { method, origin: 'https://evil.example', secFetchSite: undefined, host: 'shop.test' },
        [],
      );
      expect(reason, method).toContain('https://evil.example');
    }
  });
});

describe('operator routes', () => {
  it('answer without a token while OPERATOR_TOKEN is unset (open, as before)', async () => {
    expect((await app.inject({ method: 'GET', url: '/flags' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/outbox' })).statusCode).toBe(200);
  });

  it.each(OPERATOR_ROUTES.map((route) => [route]))(
    '%s answers 401 OPERATOR_TOKEN_MISSING without the token',
    async (route) => {
      const [method, url] = route.split(' ') as [string, string];
      const res = await guarded.inject({
        method: method as 'GET',
        url: url.replace(/:\w+/g, 'x'),
        ...(method === 'GET' ? {} : { payload: {} }),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: {
          code: 'OPERATOR_TOKEN_MISSING',
          message: expect.stringContaining(OPERATOR_TOKEN_ENV) as unknown as string,
        },
      });
    },
  );

  it('answers 401 OPERATOR_TOKEN_INVALID for a wrong token', async () => {
    for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer nope', `Bearer ${TOKEN.slice(1)}`]) {
      const res = await guarded.inject({
        method: 'GET',
        url: '/flags',
        headers: { authorization },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: 'OPERATOR_TOKEN_INVALID' } });
    }
    const basic = await guarded.inject({
      method: 'GET',
      url: '/flags',
      headers: { authorization: `Basic ${TOKEN}` },
    });
    expect(basic.json()).toMatchObject({ error: { code: 'OPERATOR_TOKEN_MISSING' } });
  });

  it('answers with the right token', async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    expect((await guarded.inject({ method: 'GET', url: '/flags', headers })).statusCode).toBe(200);
    expect((await guarded.inject({ method: 'GET', url: '/outbox', headers })).statusCode).toBe(200);
    expect(
      (await guarded.inject({ method: 'GET', url: '/monitoring/stats', headers })).statusCode,
    ).toBe(200);
    const build = await guarded.inject({
      method: 'POST',
      url: '/markers/builds',
      headers,
      payload: { buildId: 'security-test-build' },
    });
    expect(build.statusCode).toBe(200);
  });

  it('leaves the shop itself open: catalog, cart, flag assignments, intake', async () => {
    expect((await guarded.inject({ method: 'GET', url: '/departments' })).statusCode).toBe(200);
    expect((await guarded.inject({ method: 'GET', url: '/cart' })).statusCode).toBe(200);
    expect((await guarded.inject({ method: 'GET', url: '/scenarios' })).statusCode).toBe(200);
    const precompute = await guarded.inject({
      method: 'POST',
      url: '/flags/precompute-assignments',
      payload: {},
    });
    expect(precompute.statusCode).not.toBe(401);
  });

  it('compares tokens whole: a prefix, a longer token or an empty one does not match', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches('', TOKEN)).toBe(false);
    expect(tokenMatches(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(tokenMatches(`${TOKEN.slice(0, -1)}\u{10000}`, TOKEN)).toBe(false);
  });

  it('warns at start-up only when listening beyond loopback without a token', () => {
    expect(openOperatorRoutesWarning('api', '0.0.0.0', undefined)).toContain(OPERATOR_TOKEN_ENV);
    expect(openOperatorRoutesWarning('api', '192.168.1.20', '')).toContain('192.168.1.20');
    expect(openOperatorRoutesWarning('api', '0.0.0.0', TOKEN)).toBeNull();
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]']) {
      expect(openOperatorRoutesWarning('api', host, undefined), host).toBeNull();
    }
  });
});

describe('the session cookie', () => {
  async function sessionCookie(
    trustProxy: boolean | string,
    headers: Record<string, string>,
    remoteAddress?: string,
  ): Promise<string> {
    const proxied = await buildApp({ database: testDb.database, trustProxy });
    try {
      const res = await proxied.inject({
        method: 'GET',
        url: '/cart',
        headers,
        ...(remoteAddress ? { remoteAddress } : {}),
      });
      const cookie = [res.headers['set-cookie']]
        .flat()
        .find((value) => value?.startsWith(`${SESSION_COOKIE}=`));
      expect(cookie).toBeDefined();
      return cookie!;
    } finally {
      await proxied.close();
    }
  }

  it('is HttpOnly and SameSite=Lax, and not Secure over plain http', async () => {
    const cookie = await sessionCookie('loopback', {});
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/; Secure/);
  });

  it('is Secure when the web proxy on this machine (trusted: loopback) says https', async () => {
    const cookie = await sessionCookie('loopback', {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'shop.example.com',
    });
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
  });

  it('ignores X-Forwarded-Proto from a client that is not a trusted proxy', async () => {
    const cookie = await sessionCookie('loopback', { 'x-forwarded-proto': 'https' }, '203.0.113.9');
    expect(cookie).not.toMatch(/; Secure/);
  });
});

describe('error answers carry no stack trace and no SQL', () => {
  const leaks = [
    /\bat .+\(.+:\d+:\d+\)/,
    /\.ts:\d+/,
    /SELECT|INSERT|UPDATE|DELETE FROM|no such table|relation .* does not exist/i,
    /node_modules/,
  ];

  function expectClean(body: string): void {
    for (const leak of leaks) expect(body).not.toMatch(leak);
  }

  it('answers a throwing route with INTERNAL and nothing of the error', async () => {
    const local = await buildApp({ database: testDb.database });
    local.get('/test-throws', async () => {
      const error = new Error('SELECT password FROM accounts WHERE id = 1 failed');
      throw error;
    });
    try {
      const res = await local.inject({ method: 'GET', url: '/test-throws' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal Server Error' } });
      expectClean(res.body);
    } finally {
      await local.close();
    }
  });

  it("answers a real database error (a table gone) without the database's message", async () => {
    const broken = await createTestDatabase();
    const local = await buildApp({ database: broken.database });
    try {
      // The table is gone under the api's feet (renamed: no foreign key minds that).
      await sql`ALTER TABLE products RENAME TO products_gone`.execute(broken.database.db);
      const res = await local.inject({ method: 'GET', url: '/products/1' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ error: { code: 'INTERNAL' } });
      expectClean(res.body);
    } finally {
      await local.close();
      await broken.destroy();
    }
  });

  it('answers unreadable JSON with a 400 that names no internals', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/cart/items',
      headers: { 'content-type': 'application/json' },
      payload: '{"productId": 1,',
    });
    expect(res.statusCode).toBe(400);
    expectClean(res.body);
  });
});
