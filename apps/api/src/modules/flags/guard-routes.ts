import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorRef, notFound } from '../../http/errors.js';
import { GuardBodySchema, GuardListSchema, GuardStateSchema } from '@showroom/contracts/guards';
import type { GuardService } from './guard-service.js';
import { FlagKeyParamsSchema, OperatorHeadersSchema } from './schemas.js';

const GuardFlagParamsSchema = Type.Object({
  flag: Type.String({ minLength: 1, maxLength: 200, description: 'Flag key' }),
});

const ANONYMOUS_OPERATOR = 'anonymous';

/**
 * Operator routes of guarded rollouts (docs/decisions/019-guarded-rollouts.md): a flag's guard
 * is put, read and removed here; the checker (guard-service.ts) moves its state.
 */
export const guardRoutes: FastifyPluginAsyncTypebox<{ guards: GuardService }> = async (
  app,
  { guards },
) => {
  app.get(
    '/guards',
    {
      schema: {
        tags: ['flags'],
        summary: 'Every guarded rollout with its state and last check',
        response: { 200: GuardListSchema },
      },
    },
    async () => ({ guards: await guards.list() }),
  );

  app.get(
    '/guards/:flag',
    {
      schema: {
        tags: ['flags'],
        summary: "One flag's guard with its state and last check",
        params: GuardFlagParamsSchema,
        response: { 200: GuardStateSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const state = await guards.get(request.params.flag);
      if (!state) throw notFound(`Flag "${request.params.flag}" has no guard`);
      return state;
    },
  );

  app.put(
    '/flags/:key/guard',
    {
      schema: {
        tags: ['flags'],
        summary:
          "Create or replace a flag's guard (with steps: the rollout is set to the first at once)",
        params: FlagKeyParamsSchema,
        headers: OperatorHeadersSchema,
        body: GuardBodySchema,
        response: { 200: GuardStateSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) =>
      guards.put(
        request.params.key,
        request.body,
        request.headers['x-operator'] ?? ANONYMOUS_OPERATOR,
      ),
  );

  app.delete(
    '/flags/:key/guard',
    {
      schema: {
        tags: ['flags'],
        summary: "Remove a flag's guard (the rollout stays where it is)",
        params: FlagKeyParamsSchema,
        response: { 204: Type.Null(), 400: errorRef, 404: errorRef },
      },
    },
    async (request, reply) => {
      if (!(await guards.remove(request.params.key))) {
        throw notFound(`Flag "${request.params.key}" has no guard`);
      }
      return reply.code(204).send(null);
    },
  );
};
