import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from './definitions.js';
import { createFlagsRepository } from './repository.js';
import { fetchAssignments, resolveLikeProvider } from './test-support.js';

const T0 = Date.UTC(2026, 0, 15, 12);
let clock = T0;

let testDb: TestDatabase;
let app: FastifyInstance;
/** How many flags apps/api/flags defines (the shop's and the fault flags of decision 010). */
let definedFlags: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const definitions = await readFlagDefinitions(DEFAULT_FLAGS_PATH);
  definedFlags = definitions.flags.length;
  await createFlagsRepository(testDb.database.db, () => clock).syncDefinitions(definitions);
  app = await buildApp({ database: testDb.database, flags: { now: () => clock } });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const operatorRequest = (
  method: 'PATCH' | 'PUT',
  url: string,
  payload: unknown,
  operator?: string,
) =>
  app.inject({
    method,
    url,
    headers: operator === undefined ? {} : { 'x-operator': operator },
    payload: payload as Record<string, unknown>,
  });

async function configurationCreatedAt(): Promise<number> {
  return (await app.inject({ method: 'GET', url: '/flags' })).json<{ createdAt: number }>()
    .createdAt;
}

async function auditEntries(flag?: string) {
  const url = flag ? `/flags/audit?flag=${encodeURIComponent(flag)}` : '/flags/audit';
  return (await app.inject({ method: 'GET', url })).json<{ entries: Record<string, unknown>[] }>()
    .entries;
}

describe('GET /flags and /flags/:key', () => {
  it('lists every flag with allocations, rollout shares and the configuration version', async () => {
    const res = await app.inject({ method: 'GET', url: '/flags' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.createdAt).toBe(T0);
    expect(body.environment).toBe('demo');
    expect(body.flags).toHaveLength(definedFlags);
    const checkout = body.flags.find((flag: { key: string }) => flag.key === 'new_checkout_flow');
    expect(checkout).toMatchObject({
      enabled: true,
      variationType: 'BOOLEAN',
      variations: [
        { key: 'on', value: true, exposures: 0 },
        { key: 'off', value: false, exposures: 0 },
      ],
      exposures: { total: 0, byVariant: {} },
    });
    expect(
      checkout.allocations.map((a: { key: string; rolloutPercentage: number }) => [
        a.key,
        a.rolloutPercentage,
      ]),
    ).toEqual([
      ['opted-in-shoppers', 100],
      ['rollout', 10],
      ['default', 100],
    ]);
    expect(checkout.allocations[0].rules).toEqual([
      { conditions: [{ attribute: 'useNewCheckoutFlow', operator: 'ONE_OF', value: ['true'] }] },
    ]);
  });

  it('counts the stored exposures per variant', async () => {
    const exposure = (subject: string, variant: string) =>
      JSON.stringify({
        allocation: { key: 'rollout' },
        flag: { key: 'new_checkout_flow' },
        variant: { key: variant },
        subject: { id: subject, attributes: {} },
        timestamp: T0,
      });
    const res = await app.inject({
      method: 'POST',
      url: `/intake?ddforward=${encodeURIComponent('/api/v2/exposures?ddsource=browser')}`,
      headers: { 'content-type': 'text/plain' },
      payload: [exposure('a', 'on'), exposure('b', 'on'), exposure('c', 'off')].join('\n'),
    });
    expect(res.statusCode).toBe(202);
    const flag = (await app.inject({ method: 'GET', url: '/flags/new_checkout_flow' })).json();
    expect(flag.exposures).toEqual({ total: 3, byVariant: { on: 2, off: 1 } });
    expect(flag.variations.map((v: { exposures: number }) => v.exposures)).toEqual([2, 1]);
  });

  it('answers 404 JSON for an unknown flag', async () => {
    const res = await app.inject({ method: 'GET', url: '/flags/no_such_flag' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Flag "no_such_flag" not found' },
    });
  });
});

describe('PATCH /flags/:key — kill switch', () => {
  const engineer = { targetingKey: 'c0ffee', team: 'engineering' };

  it('turns a flag off: audited with the operator, createdAt bumped, providers get the default', async () => {
    clock = T0 + 60_000;
    const before = await fetchAssignments(app, engineer);
    expect(before.data.attributes.flags.show_payments?.variationValue).toBe(true);

    const res = await operatorRequest(
      'PATCH',
      '/flags/show_payments',
      { enabled: false },
      'ops@showroom.test',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      changed: true,
      createdAt: T0 + 60_000,
      flag: { key: 'show_payments', enabled: false },
    });

    const after = await fetchAssignments(app, engineer);
    expect(after.data.attributes.createdAt).toBe(T0 + 60_000);
    expect(resolveLikeProvider(after, 'show_payments', 'boolean', false)).toEqual({
      value: false,
      errorCode: 'FLAG_NOT_FOUND',
    });
    const [entry] = await auditEntries('show_payments');
    expect(entry).toEqual({
      id: expect.any(Number),
      flagKey: 'show_payments',
      action: 'disable',
      operator: 'ops@showroom.test',
      at: T0 + 60_000,
      before: { enabled: true },
      after: { enabled: false },
      configurationCreatedAt: T0 + 60_000,
    });
  });

  it('stores nothing when the flag already is so', async () => {
    const audited = (await auditEntries('show_payments')).length;
    const createdAt = await configurationCreatedAt();
    const res = await operatorRequest('PATCH', '/flags/show_payments', { enabled: false });
    expect(res.json()).toMatchObject({ changed: false, createdAt });
    expect(await auditEntries('show_payments')).toHaveLength(audited);
  });

  it('turns it back on as "anonymous", bumping createdAt even within the same millisecond', async () => {
    const createdAt = await configurationCreatedAt();
    const res = await operatorRequest('PATCH', '/flags/show_payments', { enabled: true });
    expect(res.json()).toMatchObject({ changed: true, createdAt: createdAt + 1 });
    expect((await auditEntries('show_payments'))[0]).toMatchObject({
      action: 'enable',
      operator: 'anonymous',
    });
    expect(
      (await fetchAssignments(app, engineer)).data.attributes.flags.show_payments?.variationValue,
    ).toBe(true);
  });
});

describe('PUT /flags/:key/rollout', () => {
  // Neither opted in nor in the 10 % rollout of new_checkout_flow.
  const shopper = { targetingKey: 'bob', useNewCheckoutFlow: false };

  it('widens a single-split rollout to everyone and back to nobody', async () => {
    expect(
      (await fetchAssignments(app, shopper)).data.attributes.flags.new_checkout_flow
        ?.variationValue,
    ).toBe(false);

    const res = await operatorRequest(
      'PUT',
      '/flags/new_checkout_flow/rollout',
      { allocationKey: 'rollout', percentage: 100 },
      'ops',
    );
    expect(res.statusCode).toBe(200);
    const allocation = res
      .json()
      .flag.allocations.find((a: { key: string }) => a.key === 'rollout');
    expect(allocation).toMatchObject({
      rolloutPercentage: 100,
      splits: [
        {
          variationKey: 'on',
          percentage: 100,
          shards: [
            {
              salt: 'new_checkout_flow-rollout',
              totalShards: 10_000,
              ranges: [{ start: 0, end: 10_000 }],
            },
          ],
        },
      ],
    });
    expect(
      (await fetchAssignments(app, shopper)).data.attributes.flags.new_checkout_flow,
    ).toMatchObject({
      variationValue: true,
      allocationKey: 'rollout',
      reason: 'SPLIT',
    });
    expect((await auditEntries('new_checkout_flow'))[0]).toMatchObject({
      action: 'rollout',
      before: { allocationKey: 'rollout', rolloutPercentage: 10 },
      after: { allocationKey: 'rollout', rolloutPercentage: 100 },
    });

    await operatorRequest('PUT', '/flags/new_checkout_flow/rollout', {
      allocationKey: 'rollout',
      percentage: 0,
    });
    expect(
      (await fetchAssignments(app, shopper)).data.attributes.flags.new_checkout_flow,
    ).toMatchObject({
      variationValue: false,
      allocationKey: 'default',
    });
  });

  it('scales an experiment with a shared traffic shard, keeping the variation weights', async () => {
    const res = await operatorRequest('PUT', '/flags/recommendations_strategy/rollout', {
      allocationKey: 'experiment',
      percentage: 20,
    });
    expect(res.statusCode).toBe(200);
    const experiment = res
      .json()
      .flag.allocations.find((a: { key: string }) => a.key === 'experiment');
    expect(experiment.rolloutPercentage).toBe(20);
    for (const split of experiment.splits) {
      expect(split.shards[0]).toEqual({
        salt: 'recommendations_strategy-experiment-traffic',
        totalShards: 10_000,
        ranges: [{ start: 0, end: 2000 }],
      });
      expect(split.shards).toHaveLength(2);
    }
    expect(experiment.splits.map((s: { percentage: number }) => s.percentage)).toEqual([
      6.67, 6.67, 6.67,
    ]);
  });
});

describe('PUT /flags/:key/rules', () => {
  it('retargets an allocation', async () => {
    const res = await operatorRequest(
      'PUT',
      '/flags/show_payments/rules',
      {
        allocationKey: 'engineering-team',
        rules: [
          { conditions: [{ attribute: 'team', operator: 'ONE_OF', value: ['design', 'product'] }] },
        ],
      },
      'ops',
    );
    expect(res.statusCode).toBe(200);
    const payments = async (team: string) =>
      (await fetchAssignments(app, { targetingKey: 'x1', team })).data.attributes.flags
        .show_payments?.variationValue;
    expect(await payments('design')).toBe(true);
    expect(await payments('engineering')).toBe(false);
    expect((await auditEntries('show_payments'))[0]).toMatchObject({
      action: 'rules',
      operator: 'ops',
      before: {
        allocationKey: 'engineering-team',
        rules: [{ conditions: [{ value: ['engineering'] }] }],
      },
      after: {
        allocationKey: 'engineering-team',
        rules: [{ conditions: [{ value: ['design', 'product'] }] }],
      },
    });
  });

  it('accepts numeric, regex and null conditions and uses them on typed attributes', async () => {
    const res = await operatorRequest('PUT', '/flags/free_shipping_threshold_cents/rules', {
      allocationKey: 'sales-team',
      rules: [
        { conditions: [{ attribute: 'orders', operator: 'GTE', value: 10 }] },
        {
          conditions: [
            { attribute: 'user_email', operator: 'MATCHES', value: '@showroom\\.test$' },
          ],
        },
        { conditions: [{ attribute: 'useDiscount', operator: 'IS_NULL', value: true }] },
      ],
    });
    expect(res.statusCode).toBe(200);
    const threshold = async (context: Record<string, unknown>) =>
      (await fetchAssignments(app, { targetingKey: 'x2', useDiscount: false, ...context })).data
        .attributes.flags.free_shipping_threshold_cents?.variationValue;
    expect(await threshold({ orders: 12 })).toBe(25_000);
    expect(await threshold({ orders: 3 })).toBe(50_000);
    expect(await threshold({ user_email: 'kim@showroom.test' })).toBe(25_000);
    expect(await threshold({ useDiscount: null })).toBe(25_000);
  });
});

describe('operator api validation', () => {
  const rules = (condition: Record<string, unknown>) => ({
    allocationKey: 'engineering-team',
    rules: [{ conditions: [condition] }],
  });

  it.each([
    ['PATCH', '/flags/show_payments', { enabled: 'maybe' }, 'enabled'],
    ['PATCH', '/flags/show_payments', {}, 'enabled'],
    [
      'PUT',
      '/flags/new_checkout_flow/rollout',
      { allocationKey: 'rollout', percentage: 101 },
      'percentage',
    ],
    [
      'PUT',
      '/flags/new_checkout_flow/rollout',
      { allocationKey: 'rollout', percentage: -1 },
      'percentage',
    ],
    [
      'PUT',
      '/flags/new_checkout_flow/rollout',
      { allocationKey: 'rollout', percentage: 'lots' },
      'percentage',
    ],
    [
      'PUT',
      '/flags/new_checkout_flow/rollout',
      { allocationKey: 'nope', percentage: 5 },
      'allocationKey',
    ],
    [
      'PUT',
      '/flags/show_payments/rules',
      rules({ attribute: 'team', operator: 'EQUALS', value: 'x' }),
      'rules.0.conditions.0.operator',
    ],
    [
      'PUT',
      '/flags/show_payments/rules',
      rules({ attribute: 'team', operator: 'ONE_OF', value: 'design' }),
      'rules.0.conditions.0.value',
    ],
    [
      'PUT',
      '/flags/show_payments/rules',
      rules({ attribute: 'team', operator: 'ONE_OF', value: [] }),
      'rules.0.conditions.0.value',
    ],
    [
      'PUT',
      '/flags/show_payments/rules',
      rules({ attribute: 'orders', operator: 'GT', value: '5' }),
      'rules.0.conditions.0.value',
    ],
    [
      'PUT',
      '/flags/show_payments/rules',
      rules({ attribute: 'x', operator: 'IS_NULL', value: 'yes' }),
      'rules.0.conditions.0.value',
    ],
    [
      'PUT',
      '/flags/show_payments/rules',
      rules({ attribute: 'x', operator: 'MATCHES', value: '(' }),
      'rules.0',
    ],
    [
      'PUT',
      '/flags/show_payments/rules',
      rules({ attribute: '', operator: 'ONE_OF', value: ['a'] }),
      'rules.0.conditions.0.attribute',
    ],
    [
      'PUT',
      '/flags/show_payments/rules',
      { allocationKey: 'engineering-team', rules: [{ conditions: [] }] },
      'rules.0.conditions',
    ],
    ['PUT', '/flags/show_payments/rules', { allocationKey: 'nope', rules: [] }, 'allocationKey'],
  ] as const)('%s %s %j → 400 naming %s, nothing stored', async (method, url, payload, field) => {
    const createdAt = await configurationCreatedAt();
    const audited = (await auditEntries()).length;
    const res = await operatorRequest(method, url, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'VALIDATION_ERROR', message: expect.any(String), field },
    });
    expect(await configurationCreatedAt()).toBe(createdAt);
    expect(await auditEntries()).toHaveLength(audited);
  });

  it('names an x-operator header that is too long', async () => {
    const res = await operatorRequest(
      'PATCH',
      '/flags/show_payments',
      { enabled: false },
      'x'.repeat(101),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.field).toBe('x-operator');
  });

  it('answers 404 for a change to an unknown flag', async () => {
    const res = await operatorRequest('PUT', '/flags/no_such_flag/rollout', {
      allocationKey: 'a',
      percentage: 5,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});

describe('GET /flags/audit', () => {
  it('lists changes newest first, with the start-up load, and honours limit', async () => {
    const all = await auditEntries();
    const ids = all.map((entry) => entry.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.filter((entry) => entry.action === 'load')).toHaveLength(definedFlags);
    expect(all.find((entry) => entry.action === 'load')).toMatchObject({
      operator: 'startup',
      before: null,
    });
    const two = (await app.inject({ method: 'GET', url: '/flags/audit?limit=2' })).json().entries;
    expect(two.map((entry: { id: number }) => entry.id)).toEqual(ids.slice(0, 2));
    expect((await app.inject({ method: 'GET', url: '/flags/audit?limit=0' })).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents the flag and intake routes', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    for (const [path, method] of [
      ['/flags', 'get'],
      ['/flags/audit', 'get'],
      ['/flags/{key}', 'get'],
      ['/flags/{key}', 'patch'],
      ['/flags/{key}/rollout', 'put'],
      ['/flags/{key}/rules', 'put'],
      ['/flags/precompute-assignments', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.tags).toEqual(['flags']);
    }
    expect(doc.paths['/intake']?.post?.tags).toEqual(['intake']);
  });
});
