import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { createFlagsRepository } from './repository.js';
import {
  createFlagDefinitions,
  createStaticAllocation,
  createUfcFlag,
  fetchAssignments,
  precomputeRequestBody,
  resolveLikeProvider,
} from './test-support.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const URL = '/flags/precompute-assignments';
const JSON_API = 'application/vnd.api+json';

const team = (value: string[]) => [
  { conditions: [{ attribute: 'team', operator: 'ONE_OF', value }] },
];

const FLAGS = [
  createUfcFlag('bool_flag', 'BOOLEAN', { on: true, off: false }, [
    createStaticAllocation('sales-team', 'on', team(['sales'])),
    createStaticAllocation('default', 'off'),
  ]),
  createUfcFlag('string_flag', 'STRING', { alpha: 'alpha' }, [
    createStaticAllocation('all', 'alpha'),
  ]),
  createUfcFlag('integer_flag', 'INTEGER', { answer: 42 }, [
    createStaticAllocation('all', 'answer'),
  ]),
  createUfcFlag('numeric_flag', 'NUMERIC', { pi: 3.14 }, [createStaticAllocation('all', 'pi')]),
  createUfcFlag('json_flag', 'JSON', { banner: { title: 'Hi', tone: 'light' } }, [
    createStaticAllocation('all', 'banner'),
  ]),
  createUfcFlag('mistyped_integer', 'INTEGER', { half: 2.5 }, [
    createStaticAllocation('all', 'half'),
  ]),
  createUfcFlag('mistyped_json', 'JSON', { text: '{"a":1}' }, [
    createStaticAllocation('all', 'text'),
  ]),
  createUfcFlag('disabled_flag', 'BOOLEAN', { on: true }, [createStaticAllocation('all', 'on')], {
    enabled: false,
  }),
  createUfcFlag('dutch_only', 'BOOLEAN', { on: true }, [
    createStaticAllocation('nl', 'on', [
      { conditions: [{ attribute: 'country', operator: 'ONE_OF', value: ['NL'] }] },
    ]),
  ]),
  createUfcFlag('loyal_shopper', 'STRING', { loyal: 'loyal' }, [
    createStaticAllocation('ten-orders', 'loyal', [
      { conditions: [{ attribute: 'orders', operator: 'GTE', value: 10 }] },
    ]),
  ]),
  createUfcFlag('discount_unknown', 'BOOLEAN', { yes: true, no: false }, [
    createStaticAllocation('null-discount', 'yes', [
      { conditions: [{ attribute: 'useDiscount', operator: 'IS_NULL', value: true }] },
    ]),
    createStaticAllocation('default', 'no'),
  ]),
  createUfcFlag('by_subject_id', 'BOOLEAN', { on: true }, [
    createStaticAllocation('alice-only', 'on', [
      { conditions: [{ attribute: 'id', operator: 'ONE_OF', value: ['alice'] }] },
    ]),
  ]),
  createUfcFlag('sharded', 'STRING', { a: 'a' }, [
    {
      key: 'everyone-sharded',
      splits: [
        {
          variationKey: 'a',
          shards: [{ salt: 's', totalShards: 100, ranges: [{ start: 0, end: 100 }] }],
          extraLogging: { holdout: 'none' },
        },
      ],
    },
  ]),
];

let testDb: TestDatabase;
let app: FastifyInstance;
let createdAt: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const sync = await createFlagsRepository(testDb.database.db, () => NOW).syncDefinitions(
    createFlagDefinitions(FLAGS, 'staging'),
  );
  createdAt = sync.createdAt;
  app = await buildApp({
    database: testDb.database,
    corsOrigins: ['http://localhost:3000'],
    flags: { now: () => NOW },
  });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const post = (payload: unknown, contentType = JSON_API, query = '?dd_env=demo') =>
  app.inject({
    method: 'POST',
    url: `${URL}${query}`,
    headers: { 'content-type': contentType },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

describe('POST /flags/precompute-assignments — the answer', () => {
  it('answers the precomputed-assignments document the provider reads', async () => {
    const res = await post(precomputeRequestBody({ targetingKey: 'bob', team: 'sales' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(JSON_API);
    const body = res.json();
    expect(body).toEqual({
      data: {
        id: 'bob',
        type: 'precomputed-assignments',
        attributes: { createdAt, environment: { name: 'demo' }, flags: expect.any(Object) },
      },
    });
    expect(createdAt).toBe(NOW);
    expect(body.data.attributes.flags.bool_flag).toEqual({
      allocationKey: 'sales-team',
      variationKey: 'on',
      variationType: 'BOOLEAN',
      variationValue: true,
      reason: 'TARGETING_MATCH',
      doLog: true,
      extraLogging: {},
    });
  });

  it('reports STATIC and SPLIT reasons and the split extraLogging', async () => {
    const { flags } = (await fetchAssignments(app, { targetingKey: 'carol' })).data.attributes;
    expect(flags.bool_flag).toMatchObject({
      allocationKey: 'default',
      variationValue: false,
      reason: 'STATIC',
    });
    expect(flags.sharded).toMatchObject({ reason: 'SPLIT', extraLogging: { holdout: 'none' } });
  });

  it('gives every variation type its own JSON type (spec §5 normalisation)', async () => {
    const answer = await fetchAssignments(app, { targetingKey: 'dora', team: 'sales' });
    const cases = [
      ['bool_flag', 'BOOLEAN', 'boolean', true],
      ['string_flag', 'STRING', 'string', 'alpha'],
      ['integer_flag', 'INTEGER', 'number', 42],
      ['numeric_flag', 'NUMERIC', 'number', 3.14],
      ['json_flag', 'JSON', 'object', { title: 'Hi', tone: 'light' }],
    ] as const;
    for (const [key, variationType, openFeatureType, value] of cases) {
      expect(answer.data.attributes.flags[key]?.variationType).toBe(variationType);
      expect(resolveLikeProvider(answer, key, openFeatureType, null)).toEqual({
        value,
        variant: answer.data.attributes.flags[key]?.variationKey,
      });
    }
  });

  it('leaves out flags without an assignment, so the provider answers FLAG_NOT_FOUND and the default', async () => {
    const answer = await fetchAssignments(app, { targetingKey: 'erin', country: 'BE' });
    const keys = Object.keys(answer.data.attributes.flags);
    for (const absent of [
      'disabled_flag',
      'dutch_only',
      'loyal_shopper',
      'by_subject_id',
      'no_such_flag',
    ]) {
      expect(keys).not.toContain(absent);
      expect(resolveLikeProvider(answer, absent, 'boolean', 'fallback')).toEqual({
        value: 'fallback',
        errorCode: 'FLAG_NOT_FOUND',
      });
    }
    const dutch = await fetchAssignments(app, { targetingKey: 'erin', country: 'NL' });
    expect(dutch.data.attributes.flags.dutch_only?.variationValue).toBe(true);
  });

  it('never serves a value that contradicts its flag type; a typed getter of another type gets TYPE_MISMATCH', async () => {
    const answer = await fetchAssignments(app, { targetingKey: 'fred' });
    expect(answer.data.attributes.flags).not.toHaveProperty('mistyped_integer');
    expect(answer.data.attributes.flags).not.toHaveProperty('mistyped_json');
    expect(resolveLikeProvider(answer, 'mistyped_integer', 'number', 7)).toMatchObject({
      value: 7,
    });
    expect(resolveLikeProvider(answer, 'bool_flag', 'string', 'dflt')).toEqual({
      value: 'dflt',
      errorCode: 'TYPE_MISMATCH',
    });
    expect(resolveLikeProvider(answer, 'integer_flag', 'boolean', false)).toEqual({
      value: false,
      errorCode: 'TYPE_MISMATCH',
    });
  });

  it('reads stringified attributes back into numbers, booleans and null before evaluating', async () => {
    const flagsFor = async (context: Record<string, unknown>) =>
      (await fetchAssignments(app, { targetingKey: 'gina', ...context })).data.attributes.flags;
    expect((await flagsFor({ orders: 12 })).loyal_shopper?.variationValue).toBe('loyal');
    expect((await flagsFor({ orders: 9 })).loyal_shopper).toBeUndefined();
    expect((await flagsFor({ useDiscount: null })).discount_unknown?.variationValue).toBe(true);
    expect((await flagsFor({ useDiscount: false })).discount_unknown?.variationValue).toBe(false);
    expect((await flagsFor({ orders: 'a dozen' })).loyal_shopper).toBeUndefined();
  });

  it('lets rules target the targeting key as the `id` attribute', async () => {
    const alice = await fetchAssignments(app, { targetingKey: 'alice' });
    const bob = await fetchAssignments(app, { targetingKey: 'bob' });
    expect(alice.data.attributes.flags.by_subject_id?.variationValue).toBe(true);
    expect(bob.data.attributes.flags.by_subject_id).toBeUndefined();
  });

  it('names the environment from dd_env, else the body env, else the configuration', async () => {
    const body = precomputeRequestBody({ targetingKey: 'hank' }, 'from-body');
    expect((await post(body, JSON_API, '?dd_env=prod')).json().data.attributes.environment).toEqual(
      { name: 'prod' },
    );
    expect((await post(body, JSON_API, '')).json().data.attributes.environment).toEqual({
      name: 'from-body',
    });
    const noEnv = precomputeRequestBody({ targetingKey: 'hank' }, '');
    expect((await post(noEnv, JSON_API, '?dd_env=')).json().data.attributes.environment).toEqual({
      name: 'staging',
    });
  });

  it('accepts application/json and an anonymous (empty) targeting key', async () => {
    const res = await post(precomputeRequestBody({}), 'application/json');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe('');
    expect(res.json().data.attributes.flags.bool_flag.variationValue).toBe(false);
  });
});

describe('POST /flags/precompute-assignments — errors the provider can show', () => {
  const expectProviderError = (res: Awaited<ReturnType<typeof post>>, detail: RegExp) => {
    expect(res.statusCode).toBe(400);
    // Exactly this media type: the provider reads `detail` only for it or application/json.
    expect(res.headers['content-type']).toBe(JSON_API);
    const body = res.json();
    expect(body).toEqual({
      errors: [expect.objectContaining({ status: '400', detail: expect.any(String) })],
    });
    expect(body.errors[0].detail).toMatch(detail);
  };

  it('names a missing targeting_key', async () => {
    const body = precomputeRequestBody({ team: 'sales' });
    delete (body.data.attributes.subject as { targeting_key?: string }).targeting_key;
    const res = await post(body);
    expectProviderError(res, /^data\.attributes\.subject\.targeting_key is required$/);
    expect(res.json().errors[0].source).toEqual({
      pointer: '/data/attributes/subject/targeting_key',
    });
  });

  it('names a wrong document type', async () => {
    const body = precomputeRequestBody({ targetingKey: 'x' });
    (body.data as { type: string }).type = 'something-else';
    expectProviderError(await post(body), /^data\.type /);
  });

  it('names an attribute that is not a string', async () => {
    const body = precomputeRequestBody({ targetingKey: 'x' });
    (body.data.attributes.subject.targeting_attributes as Record<string, unknown>).team = {
      nested: 1,
    };
    expectProviderError(await post(body), /data\.attributes\.subject\.targeting_attributes\.team/);
  });

  it('rejects a body that is not JSON', async () => {
    expectProviderError(await post('{"data":'), /JSON/i);
  });

  it('rejects a missing body', async () => {
    expectProviderError(await post({}), /^data is required$/);
  });
});

describe('CORS for the provider on another origin', () => {
  it('lets the preflight send the provider and tracing headers', async () => {
    const requested = [
      'content-type',
      'dd-application-id',
      'dd-client-token',
      'traceparent',
      'tracestate',
      'x-datadog-trace-id',
      'x-datadog-parent-id',
      'x-datadog-origin',
      'x-datadog-sampling-priority',
      'baggage',
    ];
    const res = await app.inject({
      method: 'OPTIONS',
      url: URL,
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': requested.join(','),
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const allowed = String(res.headers['access-control-allow-headers'])
      .toLowerCase()
      .split(/\s*,\s*/);
    for (const header of requested) expect(allowed).toContain(header);
  });
});
