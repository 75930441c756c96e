import type { FastifyInstance } from 'fastify';
import type { PrecomputedFlag } from './precompute.js';
import { mergeFlagDefinitions, parseFlagDefinitions, type FlagDefinitions } from './definitions.js';
import type { UfcAllocation, UfcFlag } from './ufc.js';

/**
 * Test support (no test runner imports): requests shaped exactly as
 * `@datadog/openfeature-browser` 1.2.5 sends them (transport/fetchConfiguration.js).
 */

/** Every context value as the provider stringifies it: strings as they are, the rest JSON. */
export function stringifyLikeProvider(context: Record<string, unknown>): Record<string, string> {
  const stringified: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    stringified[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return stringified;
}

export function precomputeRequestBody(context: Record<string, unknown>, env = 'demo') {
  return {
    data: {
      type: 'precompute-assignments-request',
      attributes: {
        env: { dd_env: env },
        source: { sdk_name: 'browser', sdk_version: 'dev' },
        subject: {
          targeting_key: typeof context.targetingKey === 'string' ? context.targetingKey : '',
          targeting_attributes: stringifyLikeProvider(context),
        },
      },
    },
  };
}

export interface PrecomputeAnswer {
  data: {
    id: string;
    type: string;
    attributes: {
      createdAt: number;
      environment: { name: string };
      flags: Record<string, PrecomputedFlag>;
    };
  };
}

/** POSTs the provider's request for `context` and answers the parsed 200 body. */
export async function fetchAssignments(
  app: FastifyInstance,
  context: Record<string, unknown>,
): Promise<PrecomputeAnswer> {
  const res = await app.inject({
    method: 'POST',
    url: '/flags/precompute-assignments?dd_env=demo',
    headers: {
      'content-type': 'application/vnd.api+json',
      'dd-client-token': 'pub-test',
      'dd-application-id': 'test-app',
    },
    payload: JSON.stringify(precomputeRequestBody(context)),
  });
  if (res.statusCode !== 200) {
    throw new Error(`precompute-assignments answered ${res.statusCode}: ${res.body}`);
  }
  return res.json<PrecomputeAnswer>();
}

/** What the provider's typed getters map a UFC variation type to (INTEGER and NUMERIC are numbers). */
export const OPEN_FEATURE_TYPE = {
  BOOLEAN: 'boolean',
  STRING: 'string',
  INTEGER: 'number',
  NUMERIC: 'number',
  JSON: 'object',
} as const;

/**
 * The provider's reading of one flag from a precompute answer (evaluation.js in
 * @datadog/openfeature-browser): absent → FLAG_NOT_FOUND, other type → TYPE_MISMATCH, both
 * answering the caller's default.
 */
export function resolveLikeProvider<T>(
  answer: PrecomputeAnswer,
  flagKey: string,
  type: 'boolean' | 'string' | 'number' | 'object',
  defaultValue: T,
): { value: unknown; errorCode?: 'FLAG_NOT_FOUND' | 'TYPE_MISMATCH'; variant?: string } {
  const flag = answer.data.attributes.flags[flagKey];
  if (!flag) return { value: defaultValue, errorCode: 'FLAG_NOT_FOUND' };
  if (OPEN_FEATURE_TYPE[flag.variationType] !== type) {
    return { value: defaultValue, errorCode: 'TYPE_MISMATCH' };
  }
  return { value: flag.variationValue, variant: flag.variationKey };
}

/** A UFC flag for tests: variations by key, allocations in order. */
export function createUfcFlag(
  key: string,
  variationType: UfcFlag['variationType'],
  variations: Record<string, unknown>,
  allocations: UfcAllocation[],
  overrides: Partial<UfcFlag> = {},
): UfcFlag {
  return {
    key,
    enabled: true,
    variationType,
    variations: Object.fromEntries(
      Object.entries(variations).map(([variationKey, value]) => [
        variationKey,
        { key: variationKey, value },
      ]),
    ),
    allocations,
    ...overrides,
  };
}

/** An allocation giving everyone who passes `rules` one variation. */
export function createStaticAllocation(
  key: string,
  variationKey: string,
  rules?: UfcAllocation['rules'],
  overrides: Partial<UfcAllocation> = {},
): UfcAllocation {
  return {
    key,
    ...(rules && { rules }),
    splits: [{ variationKey, shards: [] }],
    doLog: true,
    ...overrides,
  };
}

/**
 * Definitions as the start-up loader produces them, from flags built in a test. Throws if the
 * loader would skip one of them: a test's flags are meant to be served.
 */
export function createFlagDefinitions(flags: UfcFlag[], environment = 'test'): FlagDefinitions {
  const document = parseFlagDefinitions(
    JSON.stringify({
      environment: { name: environment },
      flags: Object.fromEntries(flags.map((f) => [f.key, f])),
    }),
    'test definitions',
  );
  if (document.skipped.length > 0) throw new Error(document.skipped.join('\n'));
  return mergeFlagDefinitions([document]);
}
