import fs from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createCatalogSeed } from '../../test/factories.js';
import {
  createCardPayment,
  createOrderRequest,
  createShopperAgent,
  createTestShopperDirectory,
  futureExpiry,
} from '../../test/shop-factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { seedCatalog } from '../catalog/seed.js';
import type { Order } from '@showroom/contracts/orders';
import { TEST_CARDS } from '../payments/gateway.js';

const CARD_NUMBER = TEST_CARDS.succeeds;
const DECLINED_NUMBER = TEST_CARDS.declines;
const CVC = '7391';

let testDb: TestDatabase;
let app: FastifyInstance;
const logLines: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await buildApp({
    database: testDb.database,
    shopperDirectory: createTestShopperDirectory(),
    logger: { level: 'trace', stream },
  });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

/** Every text a card could have been written as. */
function cardDataIn(text: string): string[] {
  const found: string[] = [];
  for (const number of [CARD_NUMBER, DECLINED_NUMBER]) {
    if (text.includes(number)) found.push(number);
    if (text.includes(number.replace(/(\d{4})(?=\d)/g, '$1 '))) found.push(`${number} spaced`);
  }
  // The CVC as a number of its own (not inside a longer digit run such as a timing figure).
  if (/(?<![\d.])7391(?!\d)/.test(text)) found.push('cvc value');
  if (/"cvc"\s*:/i.test(text)) found.push('cvc key');
  return found;
}

/** The whole database as text: the SQLite file and its WAL as bytes, or every PostgreSQL row. */
async function databaseText(): Promise<string> {
  const { database } = testDb;
  if (database.kind === 'sqlite') {
    return [database.location, `${database.location}-wal`]
      .filter((file) => fs.existsSync(file))
      .map((file) => fs.readFileSync(file).toString('latin1'))
      .join('\n');
  }
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = 'public'
  `.execute(database.db);
  const dumps: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await sql`select * from ${sql.table(table_name)}`.execute(database.db);
    dumps.push(JSON.stringify(rows.rows));
  }
  return dumps.join('\n');
}

describe('card data', () => {
  it('is neither stored nor logged after checkouts, saved cards and failures', async () => {
    const browser = createShopperAgent(app);
    await browser.put('/session/shopper', { shopperId: 'aaaa0001' });
    await browser.post('/cart/items', { productId: 1, edition: 'standard' });

    const declined = await browser.post(
      '/checkout/orders',
      createOrderRequest({ payment: createCardPayment({ number: DECLINED_NUMBER, cvc: CVC }) }),
    );
    expect(declined.statusCode).toBe(402);

    const demoError = await browser.post(
      '/checkout/orders',
      createOrderRequest({ payment: createCardPayment({ number: CARD_NUMBER, cvc: CVC }) }),
      { 'x-demo-error': 'buy-now' },
    );
    expect(demoError.statusCode).toBe(500);

    const invalid = await browser.post(
      '/checkout/orders',
      createOrderRequest({ payment: createCardPayment({ number: CARD_NUMBER, cvc: `${CVC}9` }) }),
    );
    expect(invalid.statusCode).toBe(400);

    const placed = await browser.post(
      '/checkout/orders',
      createOrderRequest({
        payment: createCardPayment({ number: CARD_NUMBER, cvc: CVC, saveCard: true }),
      }),
      { 'idempotency-key': 'card-data-check' },
    );
    expect(placed.statusCode).toBe(201);
    const order = placed.json() as Order;

    const saved = await browser.post('/payment-methods', {
      number: CARD_NUMBER,
      cvc: CVC,
      ...futureExpiry(),
    });
    expect(saved.statusCode).toBe(201);
    expect(JSON.stringify(saved.json())).not.toContain(CARD_NUMBER);
    const savedDeclined = await browser.post('/payment-methods', {
      number: DECLINED_NUMBER,
      cvc: CVC,
      ...futureExpiry(),
    });
    expect(savedDeclined.statusCode).toBe(402);

    // What the api answers back does not carry the card either.
    const answers = [
      placed.body,
      saved.body,
      (await browser.get('/orders')).body,
      (await browser.get('/payment-methods')).body,
    ];
    expect(cardDataIn(answers.join('\n'))).toEqual([]);

    // Positive controls: the stored order and the logged order are found where we look.
    const stored = await databaseText();
    expect(stored).toContain(order.id);
    expect(stored).toContain('Ada Lovelace');
    expect(cardDataIn(stored)).toEqual([]);

    const logs = logLines.join('');
    expect(logs).toContain(order.id);
    expect(app.log.level).toBe('trace');
    expect(logs).toContain('Buy now failed');
    expect(cardDataIn(logs)).toEqual([]);
  });
});
