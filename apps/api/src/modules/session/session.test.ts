import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createCatalogSeed } from '../../test/factories.js';
import {
  createSampleShopper,
  createShopperAgent,
  createTestShopperDirectory,
} from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { seedCatalog } from '../catalog/seed.js';
import { SHOPPER_DISCOUNT_RATE } from '../cart/pricing.js';
import { SESSION_COOKIE } from '@showroom/contracts/security';
import { SESSION_MAX_AGE_SECONDS } from './require-session.js';
import { DEMO_USER } from '@showroom/contracts/shopper';
import { createShopperDirectory, readShopperLists } from './shoppers.js';

let testDb: TestDatabase;
let app: FastifyInstance;

const plain = createSampleShopper({ id: 'aaaa0001', name: 'Plain Shopper', team: 'sales' });
const loyal = createSampleShopper({ id: 'bbbb0001', useDiscount: true, useNewCheckoutFlow: true });

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  app = await buildApp({
    database: testDb.database,
    shopperDirectory: createTestShopperDirectory({ standard: [plain], loyalty: [loyal] }),
  });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('session cookie', () => {
  it('gives a new browser a signed, HttpOnly, SameSite=Lax session cookie', async () => {
    const res = await app.inject({ method: 'GET', url: '/session' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      shopper: null,
      account: null,
      discountRate: 0,
      cart: { itemCount: 0, lineCount: 0 },
    });
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(new RegExp(`^${SESSION_COOKIE}=ses_[A-Za-z0-9_-]{22}\\.`));
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).toContain(`Max-Age=${SESSION_MAX_AGE_SECONDS}`);
    expect(header).toContain('Path=/');
    // Plain http (the embedded localhost default) cannot carry a Secure cookie.
    expect(header).not.toContain('Secure');
  });

  it('keeps the same session while the browser sends the cookie back, without re-setting it', async () => {
    const browser = createShopperAgent(app);
    await browser.get('/session');
    const first = browser.cookie;
    const again = await browser.get('/session');
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(browser.cookie).toBe(first);
  });

  it('replaces a tampered or forged cookie with a new session', async () => {
    const browser = createShopperAgent(app);
    await browser.put('/session/shopper', { shopperId: plain.id });
    const cookie = browser.cookie ?? '';
    const [id] = cookie.split('.');

    for (const forged of [`${id}`, `${id}.bm90LWEtc2lnbmF0dXJl`, `${cookie}x`]) {
      const res = await app.inject({
        method: 'GET',
        url: '/session',
        headers: { cookie: `${SESSION_COOKIE}=${forged}` },
      });
      expect(res.json()).toMatchObject({ shopper: null });
      expect(String(res.headers['set-cookie'])).not.toContain(`${id}.`);
    }
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const proxied = await buildApp({ database: testDb.database, trustProxy: true });
    try {
      const res = await proxied.inject({
        method: 'GET',
        url: '/session',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(String(res.headers['set-cookie'])).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });

  it('does not accept a session signed with another secret', async () => {
    const other = await buildApp({
      database: testDb.database,
      sessionSecret: 'another-secret-that-is-long-enough-0123456789',
    });
    try {
      const browser = createShopperAgent(other);
      await browser.get('/session');
      const res = await app.inject({
        method: 'GET',
        url: '/session',
        headers: { cookie: `${SESSION_COOKIE}=${browser.cookie ?? ''}` },
      });
      expect(res.headers['set-cookie']).toBeDefined();
    } finally {
      await other.close();
    }
  });
});

describe('PUT /session/shopper', () => {
  it('binds a standard-list shopper without a discount', async () => {
    const browser = createShopperAgent(app);
    const res = await browser.put('/session/shopper', { shopperId: plain.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      shopper: {
        id: plain.id,
        list: 'standard',
        name: 'Plain Shopper',
        email: plain.email,
        team: 'sales',
        useDiscount: false,
        useNewCheckoutFlow: false,
        loyaltyMember: false,
        tier: 'none',
      },
      account: null,
      discountRate: 0,
      cart: { itemCount: 0, lineCount: 0 },
    });
    expect((await browser.get('/session')).json()).toMatchObject({ shopper: { id: plain.id } });
  });

  it('decides the discount from the server copy of the record, not from the client', async () => {
    const browser = createShopperAgent(app);
    const res = await browser.put('/session/shopper', {
      shopperId: plain.id,
      useDiscount: true,
      discountRate: 0.9,
    });
    expect(res.json()).toMatchObject({ discountRate: 0, shopper: { useDiscount: false } });

    const loyalRes = await browser.put('/session/shopper', { shopperId: loyal.id });
    expect(loyalRes.json()).toMatchObject({
      discountRate: SHOPPER_DISCOUNT_RATE,
      shopper: { id: loyal.id, list: 'loyalty', useDiscount: true, useNewCheckoutFlow: true },
    });
  });

  it('knows the fixed demo user', async () => {
    const browser = createShopperAgent(app);
    const res = await browser.put('/session/shopper', { shopperId: DEMO_USER.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ discountRate: 0, shopper: { list: 'demo', team: 'Dev' } });
  });

  it('answers 404 naming shopperId for an unknown shopper and changes nothing', async () => {
    const browser = createShopperAgent(app);
    await browser.put('/session/shopper', { shopperId: plain.id });
    const res = await browser.put('/session/shopper', { shopperId: 'ffff9999' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: {
        code: 'SHOPPER_NOT_FOUND',
        message: 'No sample shopper has id "ffff9999"',
        field: 'shopperId',
      },
    });
    expect((await browser.get('/session')).json()).toMatchObject({ shopper: { id: plain.id } });
  });

  it.each([
    [{}, 'shopperId'],
    [{ shopperId: '' }, 'shopperId'],
    [{ shopperId: 'not a hex id!' }, 'shopperId'],
    [{ shopperId: 'a'.repeat(65) }, 'shopperId'],
  ])('rejects %j with a 400 naming the field', async (payload, field) => {
    const res = await app.inject({ method: 'PUT', url: '/session/shopper', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', field } });
  });

  it('unbinds with DELETE /session/shopper (an anonymous session)', async () => {
    const browser = createShopperAgent(app);
    await browser.put('/session/shopper', { shopperId: loyal.id });
    const res = await browser.delete('/session/shopper');
    expect(res.json()).toMatchObject({ shopper: null, discountRate: 0 });
    expect((await browser.get('/session')).json()).toMatchObject({ shopper: null });
  });

  it('binds each session on its own', async () => {
    const a = createShopperAgent(app);
    const b = createShopperAgent(app);
    await a.put('/session/shopper', { shopperId: loyal.id });
    await b.put('/session/shopper', { shopperId: plain.id });
    expect((await a.get('/session')).json()).toMatchObject({ shopper: { id: loyal.id } });
    expect((await b.get('/session')).json()).toMatchObject({ shopper: { id: plain.id } });
  });
});

describe('shopper lists', () => {
  it('reads the lists lazily by path and picks up files that appear later', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-shoppers-'));
    const files = {
      standard: path.join(dir, 'standard.json'),
      loyalty: path.join(dir, 'loyalty.json'),
    };
    try {
      const directory = createShopperDirectory(() => readShopperLists(files));
      expect(await directory.find(loyal.id)).toBeUndefined();

      fs.writeFileSync(files.standard, JSON.stringify([plain, { id: 7, name: 'malformed' }]));
      fs.writeFileSync(files.loyalty, JSON.stringify([loyal]));
      expect(await directory.find(loyal.id)).toEqual({ shopper: loyal, list: 'loyalty' });
      expect(await directory.find(plain.id)).toEqual({ shopper: plain, list: 'standard' });
      expect(await directory.find('7')).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the committed lists: nobody in the standard list has the discount', async () => {
    const lists = await readShopperLists();
    expect(lists.standard.length).toBeGreaterThan(0);
    expect(lists.loyalty.length).toBeGreaterThan(0);
    expect(lists.standard.filter((s) => s.useDiscount)).toEqual([]);
    expect(lists.loyalty.some((s) => s.useDiscount)).toBe(true);
  });
});

describe('calls from the web app on another port', () => {
  it('lets the web origin send credentials and use PUT, PATCH and DELETE', async () => {
    const web = await buildApp({
      database: testDb.database,
      corsOrigins: ['http://localhost:3000'],
    });
    try {
      const preflight = await web.inject({
        method: 'OPTIONS',
        url: '/cart/items/line_AAAAAAAAAAAAAAAAAAAAAA',
        headers: {
          origin: 'http://localhost:3000',
          'access-control-request-method': 'PATCH',
          'access-control-request-headers': 'content-type, idempotency-key',
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(preflight.headers['access-control-allow-credentials']).toBe('true');
      expect(String(preflight.headers['access-control-allow-methods'])).toMatch(
        /PATCH.*DELETE|DELETE.*PATCH/,
      );
      expect(String(preflight.headers['access-control-allow-headers'])).toContain(
        'idempotency-key',
      );

      const res = await web.inject({
        method: 'GET',
        url: '/session',
        headers: { origin: 'http://localhost:3000' },
      });
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers['set-cookie']).toBeDefined();
    } finally {
      await web.close();
    }
  });
});
