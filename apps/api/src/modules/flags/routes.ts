import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef, notFound } from '../../http/errors.js';
import type { IntakeRepository } from '../intake/repository.js';
import { toFlagView } from './flag-view.js';
import {
  setAllocationRollout,
  setAllocationRules,
  setFlagEnabled,
  type FlagChange,
} from './operations.js';
import type { FlagsRepository } from './repository.js';
import {
  AuditListSchema,
  FlagChangeResultSchema,
  FlagListSchema,
  FlagViewSchema,
} from '@showroom/contracts/flags-admin';
import {
  AuditQuerySchema,
  FlagKeyParamsSchema,
  OperatorHeadersSchema,
  SetEnabledBodySchema,
  SetRolloutBodySchema,
  SetRulesBodySchema,
} from './schemas.js';
import type { UfcFlag } from './ufc.js';

/** App options of the flags module. */
export interface FlagsOptions {
  /** Clock for configuration versions, audit times and allocation dates (tests pin it). */
  now?: () => number;
}

export interface FlagsRoutesOptions {
  flags: FlagsRepository;
  intake: IntakeRepository;
}

const ANONYMOUS_OPERATOR = 'anonymous';

/**
 * The operator api: read flags with their live exposure counts, flip the kill switch, change a
 * rollout or targeting rules. Every change is audited and bumps the configuration's createdAt.
 */
export const flagsRoutes: FastifyPluginAsyncTypebox<FlagsRoutesOptions> = async (
  app,
  { flags, intake },
) => {
  app.get(
    '/flags',
    {
      schema: {
        tags: ['flags'],
        summary: 'Every flag with its allocations, rollout shares and exposure counts',
        response: { 200: FlagListSchema },
      },
    },
    async () => {
      const [configuration, stored, exposures] = await Promise.all([
        flags.getConfiguration(),
        flags.listFlags(),
        intake.countExposures(),
      ]);
      return {
        createdAt: configuration?.createdAt ?? 0,
        environment: configuration?.environment ?? 'default',
        flags: stored.map((entry) => toFlagView(entry, exposures.get(entry.flag.key))),
      };
    },
  );

  app.get(
    '/flags/audit',
    {
      schema: {
        tags: ['flags'],
        summary: 'Flag changes, newest first: who, when, before and after',
        querystring: AuditQuerySchema,
        response: { 200: AuditListSchema, 400: errorRef },
      },
    },
    async (request) => ({
      entries: await flags.listAudit({
        flagKey: request.query.flag,
        limit: request.query.limit ?? 100,
      }),
    }),
  );

  app.get(
    '/flags/:key',
    {
      schema: {
        tags: ['flags'],
        summary: 'One flag with its allocations, rollout shares and exposure counts',
        params: FlagKeyParamsSchema,
        response: { 200: FlagViewSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const stored = await flags.findFlag(request.params.key);
      if (!stored) throw notFound(`Flag "${request.params.key}" not found`);
      return toFlagView(stored, (await intake.countExposures()).get(stored.flag.key));
    },
  );

  const change = async (
    key: string,
    operator: string | undefined,
    apply: (flag: UfcFlag) => FlagChange | null,
  ) => {
    const result = await flags.changeFlag(key, operator ?? ANONYMOUS_OPERATOR, apply);
    if (!result) throw notFound(`Flag "${key}" not found`);
    const exposures = (await intake.countExposures()).get(key);
    return {
      flag: toFlagView(result.stored, exposures),
      createdAt: result.configuration.createdAt,
      changed: result.changed,
    };
  };

  const changeResponse = {
    200: FlagChangeResultSchema,
    400: errorRef,
    404: errorRef,
    409: errorRef,
  };

  app.patch(
    '/flags/:key',
    {
      schema: {
        tags: ['flags'],
        summary: 'Turn a flag on or off (kill switch)',
        params: FlagKeyParamsSchema,
        headers: OperatorHeadersSchema,
        body: SetEnabledBodySchema,
        response: changeResponse,
      },
    },
    async (request) =>
      change(request.params.key, request.headers['x-operator'], (flag) =>
        setFlagEnabled(flag, request.body.enabled),
      ),
  );

  app.put(
    '/flags/:key/rollout',
    {
      schema: {
        tags: ['flags'],
        summary:
          "Set the share of subjects an allocation takes (rewrites its splits' shard ranges)",
        params: FlagKeyParamsSchema,
        headers: OperatorHeadersSchema,
        body: SetRolloutBodySchema,
        response: changeResponse,
      },
    },
    async (request) =>
      change(request.params.key, request.headers['x-operator'], (flag) =>
        setAllocationRollout(flag, request.body.allocationKey, request.body.percentage),
      ),
  );

  app.put(
    '/flags/:key/rules',
    {
      schema: {
        tags: ['flags'],
        summary: "Replace an allocation's targeting rules",
        params: FlagKeyParamsSchema,
        headers: OperatorHeadersSchema,
        body: SetRulesBodySchema,
        response: changeResponse,
      },
    },
    async (request) =>
      change(request.params.key, request.headers['x-operator'], (flag) =>
        setAllocationRules(flag, request.body.allocationKey, request.body.rules),
      ),
  );
};
