import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions, type FlagDefinitions } from './definitions.js';
import { precomputeAssignments } from './precompute.js';
import { createFlagsRepository } from './repository.js';
import { fetchAssignments } from './test-support.js';
import { FAULT_ALLOCATION_KEY, FAULT_FLAG_KEYS, FAULT_FLAGS } from '@showroom/contracts/faults';

/** The shop's flags; the fault flags (faults.json, decision 010) are disabled, so not served. */
const DEFAULT_FLAG_KEYS = [
  'checkout_country_selector_first',
  'free_shipping_threshold_cents',
  'home_hero_banner',
  'new_checkout_flow',
  'recommendations_strategy',
  'show_loaf',
  'show_loyalty_program',
  'show_payments',
];

const silent = { error() {}, warn() {}, info() {}, debug() {} };

let testDb: TestDatabase;
let app: FastifyInstance;
let definitions: FlagDefinitions;

beforeAll(async () => {
  testDb = await createTestDatabase();
  definitions = await readFlagDefinitions(DEFAULT_FLAGS_PATH);
  await createFlagsRepository(testDb.database.db).syncDefinitions(definitions);
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

/** A sample shopper's evaluation context, as the web app builds it (user fields plus shop traits). */
function shopper(id: string, fields: Record<string, unknown>) {
  return {
    targetingKey: id,
    user_id: id,
    user_name: `shopper.${id}`,
    user_email: `${id}@example.com`,
    ...fields,
  };
}

describe('the default flag definitions (apps/api/flags)', () => {
  it('load without warnings and define the shop flags and the fault flags', () => {
    expect(definitions.warnings).toEqual([]);
    expect(definitions.flags.map((flag) => flag.key).sort()).toEqual(
      [...DEFAULT_FLAG_KEYS, ...FAULT_FLAG_KEYS].sort(),
    );
  });

  it('define each fault flag of the contract disabled, with its fault for everyone on fault-on', () => {
    for (const key of FAULT_FLAG_KEYS) {
      const flag = definitions.flags.find((candidate) => candidate.key === key);
      expect(flag, key).toBeDefined();
      if (!flag) continue;
      expect(flag.enabled, key).toBe(false);
      expect(flag.variationType, key).toBe(FAULT_FLAGS[key].type);
      expect(flag.allocations.map((allocation) => allocation.key)).toEqual([
        FAULT_ALLOCATION_KEY,
        'default',
      ]);
      const [on, fallback] = flag.allocations;
      // No rules and no shards: enabling the flag serves the fault to every subject.
      expect(on?.rules ?? [], key).toEqual([]);
      expect(on?.splits, key).toEqual([{ variationKey: 'fault', shards: [] }]);
      expect(flag.variations.fault?.value, key).not.toBe(FAULT_FLAGS[key].off);
      expect(fallback?.splits, key).toEqual([{ variationKey: 'off', shards: [] }]);
      expect(flag.variations.off?.value, key).toBe(FAULT_FLAGS[key].off);
    }
  });

  it('give a sales shopper who opted into the new checkout its flags', async () => {
    const { flags } = (
      await fetchAssignments(
        app,
        shopper('a1b2c3', {
          team: 'sales',
          useDiscount: false,
          useNewCheckoutFlow: true,
          browser: 'Firefox',
        }),
      )
    ).data.attributes;
    expect(Object.keys(flags).sort()).toEqual(DEFAULT_FLAG_KEYS);
    expect(flags.new_checkout_flow).toMatchObject({
      variationValue: true,
      allocationKey: 'opted-in-shoppers',
      reason: 'TARGETING_MATCH',
    });
    expect(flags.free_shipping_threshold_cents).toMatchObject({
      variationType: 'INTEGER',
      variationValue: 25_000,
    });
    expect(flags.show_payments?.variationValue).toBe(false);
    expect(flags.show_loyalty_program?.variationValue).toBe(false);
    expect(flags.show_loaf?.variationValue).toBe(false);
    expect(['bestsellers', 'similar-materials', 'price-low']).toContain(
      flags.recommendations_strategy?.variationValue,
    );
    expect(['spring', 'craft']).toContain(flags.home_hero_banner?.variationKey);
  });

  it('give an engineering shopper with a discount other flags', async () => {
    const { flags } = (
      await fetchAssignments(
        app,
        shopper('c0ffee', {
          team: 'engineering',
          useDiscount: true,
          useNewCheckoutFlow: false,
          browser: 'Chrome',
        }),
      )
    ).data.attributes;
    expect(flags.new_checkout_flow).toMatchObject({
      variationValue: false,
      allocationKey: 'default',
    });
    expect(flags.show_payments).toMatchObject({
      variationValue: true,
      allocationKey: 'engineering-team',
    });
    expect(flags.show_loyalty_program?.variationValue).toBe(true);
    expect(flags.free_shipping_threshold_cents?.variationValue).toBe(50_000);
    expect(flags.show_loaf).toMatchObject({
      variationValue: true,
      allocationKey: 'chromium-browsers',
    });
    expect(flags.home_hero_banner).toMatchObject({
      variationType: 'JSON',
      variationKey: 'members-sale',
      variationValue: { title: "Members' sale", subtitle: expect.any(String), tone: 'accent' },
    });
  });

  it('show designers similar materials and the fixed demo user (useDiscount null) no loyalty offer', async () => {
    const designer = await fetchAssignments(app, shopper('d1e2f3', { team: 'design' }));
    expect(designer.data.attributes.flags.recommendations_strategy?.variationValue).toBe(
      'similar-materials',
    );
    const demo = await fetchAssignments(
      app,
      shopper('demo', { team: 'Dev', useDiscount: null, useNewCheckoutFlow: false }),
    );
    expect(demo.data.attributes.flags.show_loyalty_program?.variationValue).toBe(false);
    expect(demo.data.attributes.flags.home_hero_banner?.variationKey).not.toBe('members-sale');
  });

  it('roll the new checkout out to about 10 % of the shoppers who did not opt in', () => {
    let on = 0;
    const total = 5000;
    for (let i = 0; i < total; i += 1) {
      const { flags } = precomputeAssignments(
        definitions.flags,
        { targetingKey: `shopper-${i}`, attributes: { useNewCheckoutFlow: false } },
        silent,
        Date.now(),
      );
      if (flags.new_checkout_flow?.variationValue === true) on += 1;
    }
    expect(on / total).toBeGreaterThan(0.08);
    expect(on / total).toBeLessThan(0.12);
  });
});
