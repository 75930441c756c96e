import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { logFlagDefinitions, readFlagDefinitions } from './definitions.js';
import { createFlagsRepository, type SyncResult } from './repository.js';
import { fetchAssignments, resolveLikeProvider } from './test-support.js';

/**
 * A UFC file with three good flags and one malformed one (`broken_checkout`: its `allocations`
 * is an object, not a list), loaded the way the api starts: read, stored, logged.
 */
const FIXTURE = fileURLToPath(
  new URL('./testdata/ufc-with-a-malformed-flag.json', import.meta.url),
);
const GOOD_FLAGS = ['banner_color', 'free_shipping_cents', 'new_search'];

interface LogLine {
  level: number;
  msg: string;
}
const PINO_WARN = 40;

let testDb: TestDatabase;
let app: FastifyInstance;
let loaded: SyncResult;
const logLines: LogLine[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        logLines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  const definitions = await readFlagDefinitions(FIXTURE);
  loaded = await createFlagsRepository(testDb.database.db).syncDefinitions(definitions);
  app = await buildApp({ database: testDb.database, logger: { level: 'info', stream } });
  logFlagDefinitions(app.log, definitions, loaded);
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('a UFC configuration with one malformed flag', () => {
  it('starts and logs a warning naming the file, the flag and what is wrong', () => {
    const warnings = logLines.filter((line) => line.level === PINO_WARN).map((line) => line.msg);
    expect(warnings).toEqual([
      `${FIXTURE}: flag "broken_checkout" skipped: allocations must be array`,
    ]);
  });

  it('stores only the good flags', () => {
    expect(loaded.added.sort()).toEqual(GOOD_FLAGS);
  });

  it('serves every good flag', async () => {
    const dutch = await fetchAssignments(app, { targetingKey: 'shopper-1', country: 'NL' });
    const { flags } = dutch.data.attributes;
    expect(Object.keys(flags).sort()).toEqual(GOOD_FLAGS);
    expect(flags.banner_color).toMatchObject({ variationValue: 'teal', reason: 'STATIC' });
    expect(flags.free_shipping_cents).toMatchObject({
      variationValue: 5000,
      reason: 'TARGETING_MATCH',
    });
    expect(flags.new_search).toMatchObject({ variationValue: true, reason: 'SPLIT' });

    const belgian = await fetchAssignments(app, { targetingKey: 'shopper-2', country: 'BE' });
    expect(belgian.data.attributes.flags.free_shipping_cents?.variationValue).toBe(10000);
  });

  it('leaves the malformed flag out, so the provider answers its default with FLAG_NOT_FOUND', async () => {
    const answer = await fetchAssignments(app, { targetingKey: 'shopper-1' });
    expect(answer.data.attributes.flags).not.toHaveProperty('broken_checkout');
    expect(resolveLikeProvider(answer, 'broken_checkout', 'boolean', false)).toEqual({
      value: false,
      errorCode: 'FLAG_NOT_FOUND',
    });
  });

  it('lists the good flags to operators and answers 404 for the malformed one', async () => {
    const list = await app.inject({ method: 'GET', url: '/flags' });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ flags: { key: string }[] }>().flags.map((flag) => flag.key)).toEqual(
      GOOD_FLAGS,
    );

    const one = await app.inject({ method: 'GET', url: '/flags/broken_checkout' });
    expect(one.statusCode).toBe(404);
    const change = await app.inject({
      method: 'PATCH',
      url: '/flags/broken_checkout',
      payload: { enabled: false },
    });
    expect(change.statusCode).toBe(404);
  });
});
