import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { DatabaseHandle } from '../../db/database.js';
import { pingDatabase } from '../../db/database.js';

const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  database: Type.Object({
    kind: Type.String(),
    ok: Type.Boolean(),
    latencyMs: Type.Number(),
  }),
});

export const healthRoutes: FastifyPluginAsyncTypebox<{ database: DatabaseHandle }> = async (
  app,
  { database },
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database check',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      let ok = true;
      try {
        await pingDatabase(database.db);
      } catch (err) {
        ok = false;
        request.log.error({ err }, 'health check: database unreachable');
      }
      const body = {
        status: ok ? ('ok' as const) : ('unavailable' as const),
        database: { kind: database.kind, ok, latencyMs: performance.now() - started },
      };
      return reply.status(ok ? 200 : 503).send(body);
    },
  );
};
