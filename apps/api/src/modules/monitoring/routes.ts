import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef, notFound } from '../../http/errors.js';
import type { MonitoringQueries } from './queries.js';
import {
  MonitoringStatsSchema,
  SessionDetailSchema,
  SessionListQuerySchema,
  SessionListSchema,
  SessionParamsSchema,
  SessionSummarySchema,
} from '@showroom/contracts/monitoring';

export interface MonitoringRoutesOptions {
  queries: MonitoringQueries;
}

/**
 * The session inspector's api: what the intake stored from the browser SDK, read back. It is a
 * demo tool over sample shoppers: no personal data beyond the sample identity is kept.
 */
export const monitoringRoutes: FastifyPluginAsyncTypebox<MonitoringRoutesOptions> = async (
  app,
  { queries },
) => {
  app.addSchema(SessionSummarySchema);

  app.get(
    '/monitoring/sessions',
    {
      schema: {
        tags: ['monitoring'],
        summary: 'Monitored sessions, latest activity first',
        description:
          'Each session with its shopper (`usr`), whether it was anonymous, the variants of each flag its events carried (`feature_flags`), and its view, action and error counts and worst LCP.',
        querystring: SessionListQuerySchema,
        response: { 200: SessionListSchema, 400: errorRef },
      },
    },
    async (request) => ({ sessions: await queries.listSessions(request.query.limit) }),
  );

  app.get(
    '/monitoring/sessions/:sessionId',
    {
      schema: {
        tags: ['monitoring'],
        summary:
          'One session: its views and the timeline of views, actions, errors, vitals and flags',
        params: SessionParamsSchema,
        response: { 200: SessionDetailSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const session = await queries.findSession(request.params.sessionId);
      if (!session) throw notFound(`Session ${request.params.sessionId} not found`);
      return session;
    },
  );

  app.get(
    '/monitoring/stats',
    {
      schema: {
        tags: ['monitoring'],
        summary: 'Live counts: sessions per flag variant, conversion per instant_pay variant',
        response: { 200: MonitoringStatsSchema },
      },
    },
    async () => queries.stats(),
  );
};
