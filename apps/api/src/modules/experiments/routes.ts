import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ExperimentListSchema,
  ExperimentParamsSchema,
  ExperimentQuerySchema,
  ExperimentReportSchema,
  TRACKING_ROUTE,
  TrackingAcceptedSchema,
  TrackingBatchSchema,
} from '@showroom/contracts/experiments';
import { errorRef, notFound } from '../../http/errors.js';
import type { ExperimentsRepository } from './repository.js';
import type { ExperimentResults } from './results.js';

export interface ExperimentsRoutesOptions {
  experiments: ExperimentsRepository;
  results: ExperimentResults;
  now: () => number;
}

/**
 * Tracking events in (`POST /flags/track`, public: the shop's browsers send them through the
 * web's same-origin /api proxy) and experiment results out (`GET /experiments…`, operator
 * routes like the rest of the inspector's data: docs/decisions/017-experiment-statistics.md).
 */
export const experimentsRoutes: FastifyPluginAsyncTypebox<ExperimentsRoutesOptions> = async (
  app,
  { experiments, results, now },
) => {
  // The api's Ajv coerces types (app.ts AJV_OPTIONS), and in a union it coerces to the first
  // type that fits: a detail's number or boolean would be stored as a string. Validation still
  // judges every detail; the handler stores the values as they were sent.
  const sentDetails = new WeakMap<object, unknown[]>();

  app.post(
    TRACKING_ROUTE,
    {
      preValidation: async (request) => {
        const events = (request.body as { events?: unknown } | undefined)?.events;
        if (!Array.isArray(events)) return;
        sentDetails.set(
          request,
          events.map((event) =>
            typeof event === 'object' && event !== null
              ? structuredClone((event as { details?: unknown }).details)
              : undefined,
          ),
        );
      },
      schema: {
        tags: ['flags'],
        summary: 'Tracking events of OpenFeature `track()` (add to cart, checkout, purchase)',
        description:
          'A batch of up to 100 events, each with the subject’s targeting key, a name, an epoch-ms timestamp and optionally a value in integer cents with its currency. Stored whole in one transaction, or not at all (400 naming the field).',
        body: TrackingBatchSchema,
        response: { 202: TrackingAcceptedSchema, 400: errorRef },
      },
    },
    async (request, reply) => {
      const details = sentDetails.get(request);
      const events = request.body.events.map((event, i) =>
        event.details === undefined
          ? event
          : { ...event, details: details?.[i] as typeof event.details },
      );
      const stored = await experiments.storeTrackingEvents(events, now());
      return reply.status(202).send({ stored });
    },
  );

  app.get(
    '/experiments',
    {
      schema: {
        tags: ['flags'],
        summary: 'Experiments: flags serving more than one variant, and instant_pay',
        response: { 200: ExperimentListSchema },
      },
    },
    async () => results.list(),
  );

  app.get(
    '/experiments/:flagKey',
    {
      schema: {
        tags: ['flags'],
        summary: 'Results of one experiment per variant, with 95 % intervals and an SRM check',
        description:
          'Subjects count in the variant of their first exposure; a conversion is a `purchase` tracking event at or after it. Conversion rate: Wilson score interval; revenue per exposed subject: normal interval; lift against the control: unpooled normal interval and pooled two-proportion z-test (revenue: Welch); sample-ratio mismatch: chi-square goodness of fit, warning below p = 0.001. `since` (epoch ms) counts only exposures from then on.',
        params: ExperimentParamsSchema,
        querystring: ExperimentQuerySchema,
        response: { 200: ExperimentReportSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const report = await results.report(request.params.flagKey, request.query.since);
      if (!report) throw notFound(`Flag ${request.params.flagKey} not found`);
      return report;
    },
  );
};
