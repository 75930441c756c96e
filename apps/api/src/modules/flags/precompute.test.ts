import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { setFlagEnabled } from './operations.js';
import { createFlagsRepository } from './repository.js';
import {
  createFlagDefinitions,
  createStaticAllocation,
  createUfcFlag,
  fetchAssignments,
  OPEN_FEATURE_TYPE,
  precomputeRequestBody,
  resolveLikeProvider,
  type PrecomputeAnswer,
} from './test-support.js';
import type { UfcFlag } from './ufc.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const URL = '/flags/precompute-assignments';
const JSON_API = 'application/vnd.api+json';

const team = (value: string[]) => [
  { conditions: [{ attribute: 'team', operator: 'ONE_OF', value }] },
];

/** A split that takes `percent` % of the subjects, by their targeting key. */
const rolloutSplit = (variationKey: string, salt: string, percent: number) => ({
  variationKey,
  shards: [{ salt, totalShards: 100, ranges: [{ start: 0, end: percent }] }],
});

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
  // Half the subjects get beta; the others fall through to the static allocation.
  createUfcFlag('rollout_then_everyone', 'STRING', { beta: 'beta', stable: 'stable' }, [
    { key: 'half', splits: [rolloutSplit('beta', 'half', 50)] },
    createStaticAllocation('everyone', 'stable'),
  ]),
  // Rules come before shards: only the sales team reaches the sharded split.
  createUfcFlag('sales_pilot', 'BOOLEAN', { on: true, off: false }, [
    { key: 'sales-rollout', rules: team(['sales']), splits: [rolloutSplit('on', 'pilot', 100)] },
    createStaticAllocation('default', 'off'),
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

  it("gives every variation type its own JSON type, as the provider's typed getters expect", async () => {
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

describe('POST /flags/precompute-assignments — a subject without a targeting key', () => {
  /** The provider's request without a key: `targeting_key` empty (what it sends) or absent. */
  const withoutKey = async (
    targetingKey: '' | undefined,
    context: Record<string, unknown>,
  ): Promise<PrecomputeAnswer> => {
    const body = precomputeRequestBody(context);
    const subject: { targeting_key?: string } = body.data.attributes.subject;
    if (targetingKey === undefined) delete subject.targeting_key;
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    return res.json<PrecomputeAnswer>();
  };

  it.each([
    ['empty', ''],
    ['absent', undefined],
  ] as const)(
    'with the key %s, assigns only the flags that need no key to assign',
    async (_case, targetingKey) => {
      const support = await withoutKey(targetingKey, { team: 'support' });
      expect(support.data.id).toBe('');
      const { flags } = support.data.attributes;
      // Static splits and rules that do not need the key still assign.
      expect(flags.bool_flag).toMatchObject({ variationValue: false, reason: 'STATIC' });
      expect(flags.string_flag).toMatchObject({ variationValue: 'alpha' });
      expect(flags.sales_pilot).toMatchObject({ allocationKey: 'default', variationValue: false });
      // A split with shards aborts the flag, even with a static allocation after it.
      expect(flags).not.toHaveProperty('sharded');
      expect(flags).not.toHaveProperty('rollout_then_everyone');
      // Without a key there is no `id` attribute for rules to match.
      expect(flags).not.toHaveProperty('by_subject_id');
      expect(resolveLikeProvider(support, 'rollout_then_everyone', 'string', 'dflt')).toEqual({
        value: 'dflt',
        errorCode: 'FLAG_NOT_FOUND',
      });

      const sales = await withoutKey(targetingKey, { team: 'sales' });
      expect(sales.data.attributes.flags.bool_flag?.variationValue).toBe(true);
      expect(sales.data.attributes.flags).not.toHaveProperty('sales_pilot');
    },
  );

  it("assigns what flagging-core's own evaluate assigns to a context without targetingKey", async () => {
    const core = createRequire(import.meta.url)('@datadog/flagging-core') as {
      evaluateRulesBasedConfiguration(
        configuration: { flags: Record<string, UfcFlag> },
        type: string,
        flagKey: string,
        defaultValue: unknown,
        context: Record<string, unknown>,
        logger: Record<'error' | 'warn' | 'info' | 'debug', () => void>,
      ): { value: unknown; variant?: string; errorCode?: string };
    };
    const quiet = { error() {}, warn() {}, info() {}, debug() {} };
    const configuration = { flags: Object.fromEntries(FLAGS.map((flag) => [flag.key, flag])) };
    // The service narrows flagging-core 3's whole-flag refusal of mistyped variations (see
    // evaluateFlag and flagging-core.test.ts), so those two flags are left out here.
    const comparable = FLAGS.filter((flag) => !flag.key.startsWith('mistyped_'));
    const missingKey: string[] = [];
    for (const context of [{ team: 'support' }, { team: 'sales', country: 'NL' }]) {
      const answer = await withoutKey('', context);
      for (const flag of comparable) {
        const reference = core.evaluateRulesBasedConfiguration(
          configuration,
          OPEN_FEATURE_TYPE[flag.variationType],
          flag.key,
          'default',
          context,
          quiet,
        );
        if (reference.errorCode === 'TARGETING_KEY_MISSING') missingKey.push(flag.key);
        const served = answer.data.attributes.flags[flag.key];
        expect(
          served && { variant: served.variationKey, value: served.variationValue },
          `${flag.key} for ${JSON.stringify(context)}`,
        ).toEqual(reference.variant && { variant: reference.variant, value: reference.value });
      }
    }
    // The reference does refuse the sharded flags for a missing key (not merely assign nothing).
    expect(missingKey.sort()).toEqual([
      'rollout_then_everyone',
      'rollout_then_everyone',
      'sales_pilot',
      'sharded',
      'sharded',
    ]);
  });

  it('still assigns the sharded flags once the subject has a key', async () => {
    const { flags } = (await fetchAssignments(app, { targetingKey: 'ivy', team: 'sales' })).data
      .attributes;
    expect(flags.sharded).toMatchObject({ reason: 'SPLIT' });
    expect(flags.sales_pilot).toMatchObject({
      allocationKey: 'sales-rollout',
      reason: 'TARGETING_MATCH',
    });
    expect(['beta', 'stable']).toContain(flags.rollout_then_everyone?.variationValue);
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

describe('answers kept per shopper (precompute-cache.ts)', () => {
  const HOUR = 3_600_000;
  let clock = NOW;
  let db: TestDatabase;
  let shop: FastifyInstance;

  beforeAll(async () => {
    db = await createTestDatabase();
    await createFlagsRepository(db.database.db, () => NOW).syncDefinitions(
      createFlagDefinitions([
        createUfcFlag('sale_banner', 'BOOLEAN', { on: true, off: false }, [
          createStaticAllocation('sale-week', 'on', undefined, {
            startAt: new Date(NOW + HOUR).toISOString(),
          }),
          createStaticAllocation('default', 'off'),
        ]),
      ]),
    );
    shop = await buildApp({ database: db.database, flags: { now: () => clock } });
  });

  afterAll(async () => {
    await shop.close();
    await db.destroy();
  });

  const bannerFor = async (targetingKey: string) =>
    (await fetchAssignments(shop, { targetingKey, team: 'sales' })).data.attributes.flags
      .sale_banner?.variationKey;

  it('serves a shopper asked before an allocation opened that allocation once it has', async () => {
    expect(await bannerFor('ann')).toBe('off');
    clock = NOW + HOUR;
    expect(await bannerFor('ann')).toBe('on');
  });

  it('serves a shopper asked before a flag change the changed flag', async () => {
    clock = NOW + HOUR;
    expect(await bannerFor('bob')).toBe('on');
    const repository = createFlagsRepository(db.database.db, () => clock);
    await repository.changeFlag('sale_banner', 'test', (flag) => setFlagEnabled(flag, false));
    expect(await bannerFor('bob')).toBeUndefined();
  });
});
