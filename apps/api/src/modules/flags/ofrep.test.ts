import type { Client, EvaluationContext } from '@openfeature/server-sdk';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOYALTY_TIERS } from '@showroom/contracts/accounts';
import type { BrowserFamily } from '@showroom/contracts/browser-family';
import { buildFlagSubject, type FlagPersona } from '@showroom/contracts/flag-subject';
import {
  CALLER_DEFAULTS,
  getDetails,
  startOfrepHarness,
  type OfrepHarness,
} from '../../test/ofrep-provider.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { readShopperLists } from '../session/shoppers.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from './definitions.js';
import { createFlagsRepository } from './repository.js';
import {
  createFlagDefinitions,
  createStaticAllocation,
  createUfcFlag,
  fetchAssignments,
} from './test-support.js';
import type { UfcFlag } from './ufc.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const SINGLE = '/ofrep/v1/evaluate/flags';
const DOMAIN = 'ofrep-test';

/** Beside the shop's own flags: one of each answer OFREP can give for an existing flag. */
const EXTRA_FLAGS: UfcFlag[] = [
  createUfcFlag('test_dutch_only', 'BOOLEAN', { on: true }, [
    createStaticAllocation('nl', 'on', [
      { conditions: [{ attribute: 'country', operator: 'ONE_OF', value: ['NL'] }] },
    ]),
  ]),
  createUfcFlag('test_disabled', 'BOOLEAN', { on: true }, [createStaticAllocation('all', 'on')], {
    enabled: false,
  }),
  createUfcFlag('test_mistyped', 'INTEGER', { half: 2.5 }, [createStaticAllocation('all', 'half')]),
  createUfcFlag('test_sharded', 'STRING', { a: 'a' }, [
    {
      key: 'everyone-sharded',
      doLog: true,
      splits: [
        {
          variationKey: 'a',
          shards: [{ salt: 's', totalShards: 100, ranges: [{ start: 0, end: 100 }] }],
          extraLogging: { holdout: 'none' },
        },
      ],
    },
  ]),
  createUfcFlag('test_banner', 'JSON', { banner: { title: 'Hi', sizes: [1, 2] } }, [
    createStaticAllocation('all', 'banner', undefined, { doLog: false }),
  ]),
];

let testDb: TestDatabase;
let app: FastifyInstance;
let client: Client;
let harness: OfrepHarness;
let servedFlags: UfcFlag[];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const shop = await readFlagDefinitions(DEFAULT_FLAGS_PATH);
  const extra = createFlagDefinitions(EXTRA_FLAGS);
  const flags = createFlagsRepository(testDb.database.db, () => NOW);
  await flags.syncDefinitions({ ...shop, flags: [...shop.flags, ...extra.flags] });
  servedFlags = (await flags.listFlags()).map((stored) => stored.flag);
  harness = await startOfrepHarness(DOMAIN, {
    database: testDb.database,
    corsOrigins: ['http://localhost:3000'],
    flags: { now: () => NOW },
  });
  ({ app, client } = harness);
});

afterAll(async () => {
  await harness.close();
  await testDb.destroy();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

interface BulkEntry {
  key: string;
  value?: unknown;
  variant?: string;
  reason?: string;
  errorCode?: string;
  metadata?: Record<string, unknown>;
}

const BROWSERS: BrowserFamily[] = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Opera', 'Other'];

/** 100 shoppers of each sample list, as the web app turns them into flag subjects. */
async function sampleContexts(): Promise<EvaluationContext[]> {
  const lists = await readShopperLists();
  const personas: FlagPersona[] = [
    ...lists.standard.slice(0, 100),
    ...lists.loyalty.slice(0, 100).map((shopper, i) => ({
      ...shopper,
      loyaltyMember: true,
      tier: LOYALTY_TIERS[i % LOYALTY_TIERS.length],
    })),
  ];
  return personas.map((persona, i) => {
    const subject = buildFlagSubject(persona, BROWSERS[i % BROWSERS.length] ?? 'Other');
    return { targetingKey: subject.targetingKey, ...subject.attributes } as EvaluationContext;
  });
}

describe('OFREP and precompute-assignments: one evaluator', () => {
  it('gives 200 shoppers of both sample lists the same value and variant of every flag', async () => {
    const contexts = await sampleContexts();
    expect(contexts).toHaveLength(200);
    const seen = { assigned: 0, unassigned: 0, error: 0 };
    for (const context of contexts) {
      const precomputed = (await fetchAssignments(app, context)).data.attributes.flags;
      const bulk = await post(SINGLE, { context });
      expect(bulk.statusCode).toBe(200);
      const entries = new Map(
        bulk.json<{ flags: BulkEntry[] }>().flags.map((entry) => [entry.key, entry]),
      );
      expect([...entries.keys()].sort()).toEqual(servedFlags.map((flag) => flag.key).sort());

      for (const flag of servedFlags) {
        const defaultValue = CALLER_DEFAULTS[flag.variationType];
        const details = await getDetails(
          client,
          flag.key,
          flag.variationType,
          defaultValue,
          context,
        );
        const assignment = precomputed[flag.key];
        const entry = entries.get(flag.key);
        const where = `${flag.key} for ${String(context.targetingKey)}`;
        if (assignment) {
          seen.assigned += 1;
          expect(details, where).toMatchObject({
            value: assignment.variationValue,
            variant: assignment.variationKey,
            reason: assignment.reason,
            flagMetadata: {
              allocationKey: assignment.allocationKey,
              doLog: assignment.doLog,
              variationType: assignment.variationType,
            },
          });
          expect(details.errorCode, where).toBeUndefined();
          expect(entry, where).toMatchObject({
            value: assignment.variationValue,
            variant: assignment.variationKey,
          });
        } else if (entry && 'errorCode' in entry) {
          // No targeting key, or a value of the wrong type: the provider reports the error.
          seen.error += 1;
          expect(details, where).toMatchObject({ value: defaultValue, reason: 'ERROR' });
          expect(details.errorCode, where).toBe(entry.errorCode);
        } else {
          // No assignment: a success without a value (OFREP ADR 0006). Provider 0.1.3 predates
          // that and reads it as a malformed answer: still the caller's default.
          seen.unassigned += 1;
          expect(entry, where).not.toHaveProperty('value');
          expect(['DISABLED', 'DEFAULT'], where).toContain(entry?.reason);
          expect(details, where).toMatchObject({
            value: defaultValue,
            reason: 'ERROR',
            errorCode: 'GENERAL',
          });
        }
      }
    }
    // Each kind of answer was met (the comparison is not vacuous).
    expect(seen.assigned).toBeGreaterThan(1000);
    expect(seen.unassigned).toBeGreaterThan(200);
    expect(seen.error).toBeGreaterThanOrEqual(200);
  }, 120_000);
});

describe('POST /ofrep/v1/evaluate/flags/{key}', () => {
  const context = { targetingKey: 'alice', country: 'NL', orders: 12, vip: true, note: null };

  it('answers an assignment with its value, variant, reason and exposure metadata', async () => {
    const res = await post(`${SINGLE}/test_sharded`, { context });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      key: 'test_sharded',
      value: 'a',
      reason: 'SPLIT',
      variant: 'a',
      metadata: {
        allocationKey: 'everyone-sharded',
        doLog: true,
        variationType: 'STRING',
        'extraLogging.holdout': 'none',
      },
    });
    const json = await post(`${SINGLE}/test_banner`, { context });
    expect(json.json()).toMatchObject({
      value: { title: 'Hi', sizes: [1, 2] },
      reason: 'STATIC',
      metadata: { doLog: false, variationType: 'JSON' },
    });
  });

  it('reads typed context attributes as they are', async () => {
    expect((await post(`${SINGLE}/test_dutch_only`, { context })).json()).toMatchObject({
      value: true,
      reason: 'TARGETING_MATCH',
      variant: 'on',
    });
  });

  it('answers no assignment as a success without a value (the caller keeps its default)', async () => {
    const disabled = await post(`${SINGLE}/test_disabled`, { context });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toEqual({
      key: 'test_disabled',
      reason: 'DISABLED',
      metadata: { doLog: false, variationType: 'BOOLEAN' },
    });
    const unmatched = await post(`${SINGLE}/test_dutch_only`, {
      context: { ...context, country: 'BE' },
    });
    expect(unmatched.json()).toEqual({
      key: 'test_dutch_only',
      reason: 'DEFAULT',
      metadata: { doLog: false, variationType: 'BOOLEAN' },
    });
  });

  it('answers an unknown flag 404 FLAG_NOT_FOUND, which the provider reports', async () => {
    const res = await post(`${SINGLE}/no_such_flag`, { context });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      key: 'no_such_flag',
      errorCode: 'FLAG_NOT_FOUND',
      errorDetails: 'No flag "no_such_flag"',
    });
    const details = await client.getBooleanDetails('no_such_flag', true, context);
    expect(details).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
  });

  it('answers a sharded flag without a targeting key 400 TARGETING_KEY_MISSING', async () => {
    for (const body of [{ context: { country: 'NL' } }, { context: { targetingKey: '' } }, {}]) {
      const res = await post(`${SINGLE}/test_sharded`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ key: 'test_sharded', errorCode: 'TARGETING_KEY_MISSING' });
    }
    const details = await client.getStringDetails('test_sharded', 'fallback', { country: 'NL' });
    expect(details).toMatchObject({ value: 'fallback', errorCode: 'TARGETING_KEY_MISSING' });
  });

  it('answers a variation of the wrong type 400 GENERAL naming the mismatch', async () => {
    const res = await post(`${SINGLE}/test_mistyped`, { context });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      key: 'test_mistyped',
      errorCode: 'GENERAL',
      errorDetails: 'TYPE_MISMATCH: variation "half" is not a INTEGER',
    });
  });

  // The api's Ajv coerces scalars (app.ts AJV_OPTIONS): a numeric targetingKey reads as its text,
  // so the bad ones here are objects.
  it.each([
    ['a context that is not an object', { context: 'alice' }, 'INVALID_CONTEXT', 'body.context'],
    [
      'a targeting key that is not a string',
      { context: { targetingKey: { id: 7 } } },
      'INVALID_CONTEXT',
      'body.context.targetingKey',
    ],
    ['a body that is not an object', [1, 2], 'PARSE_ERROR', 'body'],
  ])('answers %s 400 naming the field', async (_case, payload, errorCode, field) => {
    const res = await post(`${SINGLE}/test_banner`, payload);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ key: string; errorCode: string; errorDetails: string }>();
    expect(body).toMatchObject({ key: 'test_banner', errorCode });
    expect(body.errorDetails.startsWith(`${field} `)).toBe(true);
  });

  it('answers a body that is not JSON 400 PARSE_ERROR', async () => {
    const res = await post(`${SINGLE}/test_banner`, '{"context": {');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'test_banner', errorCode: 'PARSE_ERROR' });
  });
});

describe('POST /ofrep/v1/evaluate/flags (bulk)', () => {
  const context = { targetingKey: 'bob', country: 'NL' };

  it('answers every flag, successes and error entries, with an ETag', async () => {
    const res = await post(SINGLE, { context });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^"[\w-]{43}"$/);
    const { flags } = res.json<{ flags: BulkEntry[] }>();
    const byKey = new Map(flags.map((entry) => [entry.key, entry]));
    expect(byKey.get('test_dutch_only')).toEqual({
      key: 'test_dutch_only',
      value: true,
      reason: 'TARGETING_MATCH',
      variant: 'on',
      metadata: { allocationKey: 'nl', doLog: true, variationType: 'BOOLEAN' },
    });
    expect(byKey.get('test_disabled')).toEqual({
      key: 'test_disabled',
      reason: 'DISABLED',
      metadata: { doLog: false, variationType: 'BOOLEAN' },
    });
    expect(byKey.get('test_mistyped')).toMatchObject({ errorCode: 'GENERAL' });
  });

  it('answers 304 to the current ETag, and a new ETag and 200 after a flag change', async () => {
    const first = await post(SINGLE, { context });
    const etag = first.headers.etag as string;
    const again = await post(SINGLE, { context }, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    // A list of tags and a weak one match too; another subject's answer does not.
    expect(
      (await post(SINGLE, { context }, { 'if-none-match': `"x", W/${etag}` })).statusCode,
    ).toBe(304);
    const other = await post(
      SINGLE,
      { context: { targetingKey: 'bob', country: 'BE' } },
      {
        'if-none-match': etag,
      },
    );
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).not.toBe(etag);

    const change = await app.inject({
      method: 'PATCH',
      url: '/flags/test_dutch_only',
      payload: { enabled: false },
    });
    expect(change.statusCode).toBe(200);
    const changed = await post(SINGLE, { context }, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(
      changed.json<{ flags: BulkEntry[] }>().flags.find((entry) => entry.key === 'test_dutch_only'),
    ).toMatchObject({ reason: 'DISABLED' });
    await app.inject({
      method: 'PATCH',
      url: '/flags/test_dutch_only',
      payload: { enabled: true },
    });
  });

  it('answers a malformed body 400 with the bulk error shape', async () => {
    const res = await post(SINGLE, { context: { targetingKey: { id: 'bob' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      errorCode: 'INVALID_CONTEXT',
      errorDetails: 'body.context.targetingKey must be string',
    });
    const notJson = await post(SINGLE, 'not json');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ errorCode: 'PARSE_ERROR' });
  });
});

describe('OFREP across origins', () => {
  it('lets an allowed origin send OFREP headers and read ETag and Retry-After', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: SINGLE,
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, x-api-key, if-none-match, content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const name of ['authorization', 'x-api-key', 'if-none-match']) {
      expect(allowed).toContain(name);
    }
    const res = await post(SINGLE, { context: {} }, { origin: 'http://localhost:3000' });
    expect(res.statusCode).toBe(200);
    const exposed = String(res.headers['access-control-expose-headers']).toLowerCase();
    expect(exposed).toContain('etag');
    expect(exposed).toContain('retry-after');
  });

  it('refuses a write from a foreign site in the OFREP error shape', async () => {
    const res = await post(
      `${SINGLE}/test_banner`,
      { context: {} },
      { origin: 'https://evil.test' },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ key: 'test_banner', errorCode: 'GENERAL' });
  });
});

describe('OFREP API keys and rate limit', () => {
  let guarded: OfrepHarness;
  // Its own database: rate-limit counts live there, shared by every app on it (as by replicas).
  let guardedDb: TestDatabase;

  beforeAll(async () => {
    guardedDb = await createTestDatabase();
    await createFlagsRepository(guardedDb.database.db).syncDefinitions(
      createFlagDefinitions(EXTRA_FLAGS),
    );
    guarded = await startOfrepHarness(
      'ofrep-keyed',
      {
        database: guardedDb.database,
        // Operator routes closed: OFREP is not one of them, it needs only its own keys.
        operatorToken: 'operator-secret',
        ofrep: { apiKeys: ['key-one', 'key-two'], rateLimitPerMinute: 3 },
      },
      { 'X-API-Key': 'key-one' },
    );
  });

  afterAll(async () => {
    await guarded.app.close();
    await guardedDb.destroy();
  });

  /** Each case its own client address: the rate limit counts per route and address. */
  const ask = (remoteAddress: string, headers: Record<string, string> = {}) =>
    guarded.app.inject({
      method: 'POST',
      url: `${SINGLE}/test_banner`,
      remoteAddress,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ context: { targetingKey: 'carol' } }),
    });

  it('answers 401 without a key, 403 with a wrong one, 200 with a configured one', async () => {
    const missing = await ask('192.0.2.1');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ key: 'test_banner', errorCode: 'GENERAL' });
    expect((await ask('192.0.2.2', { 'x-api-key': 'key-three' })).statusCode).toBe(403);
    expect((await ask('192.0.2.3', { authorization: 'Bearer key-on' })).statusCode).toBe(403);
    expect((await ask('192.0.2.4', { 'x-api-key': 'key-two' })).statusCode).toBe(200);
    expect((await ask('192.0.2.5', { authorization: 'Bearer key-one' })).statusCode).toBe(200);
    // The web's /api proxy may add the operator's bearer token beside the caller's key.
    const both = await ask('192.0.2.6', {
      'x-api-key': 'key-one',
      authorization: 'Bearer operator-secret',
    });
    expect(both.statusCode).toBe(200);
  });

  it('lets the official provider in with its configured header', async () => {
    const keyed = guarded.client;
    const unknown = await keyed.getBooleanDetails('no_such_flag', true, { targetingKey: 'dave' });
    expect(unknown).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
    const banner = await keyed.getObjectDetails('test_banner', {}, { targetingKey: 'dave' });
    expect(banner).toMatchObject({ value: { title: 'Hi', sizes: [1, 2] }, variant: 'banner' });
  });

  it('answers 429 with Retry-After past the limit, in the OFREP error shape', async () => {
    const key = { 'x-api-key': 'key-one' };
    for (let i = 0; i < 3; i += 1) expect((await ask('198.51.100.7', key)).statusCode).toBe(200);
    const limited = await ask('198.51.100.7', key);
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json()).toMatchObject({ key: 'test_banner', errorCode: 'GENERAL' });
    // Another client is not held back.
    expect((await ask('198.51.100.8', key)).statusCode).toBe(200);
  });
});
