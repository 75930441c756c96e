import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, errorRef, notFound } from '../../http/errors.js';
import { createEventChecker, decodeBody, parseForwardedTarget, parseNdjson } from './decode.js';
import type { IntakeRepository } from './repository.js';
import {
  ExposureEventSchema,
  FlagEvaluationEventSchema,
  IntakeAcceptedSchema,
  IntakeQuerySchema,
  MAX_INTAKE_BODY_BYTES,
  ProfilingQuotaSchema,
} from './schemas.js';

export interface IntakeRoutesOptions {
  intake: IntakeRepository;
  now: () => number;
}

const checkExposures = createEventChecker(ExposureEventSchema, 'exposure');
const checkFlagEvaluations = createEventChecker(FlagEvaluationEventSchema, 'flag evaluation');

/**
 * `POST /intake?ddforward=…`: the browser SDKs' `proxy` target. Exposures and flag evaluations
 * are decoded into their own tables; every other track is kept event by event.
 */
export const intakeRoutes: FastifyPluginAsyncTypebox<IntakeRoutesOptions> = async (
  app,
  { intake, now },
) => {
  // The SDKs send NDJSON as text/plain (deflated when dd-evp-encoding=deflate): read raw bytes.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'buffer', bodyLimit: MAX_INTAKE_BODY_BYTES },
    (_request, body, done) => done(null, body),
  );

  // Replay segments and profiles arrive as multipart/form-data: kept whole until decoded.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_INTAKE_BODY_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/intake',
    {
      schema: {
        tags: ['intake'],
        summary: "The RUM profiler's quota check (`/api/v2/profiling/quota`): always admitted",
        querystring: IntakeQuerySchema,
        response: { 200: ProfilingQuotaSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const path = request.query.ddforward.split('?')[0];
      if (path !== '/api/v2/profiling/quota') {
        throw notFound(`No GET endpoint for intake path "${path}"`);
      }
      return { data: { attributes: { admitted: true, reason: 'quota_ok' } } };
    },
  );

  app.post(
    '/intake',
    {
      bodyLimit: MAX_INTAKE_BODY_BYTES,
      schema: {
        tags: ['intake'],
        summary: 'Telemetry batches from the browser SDKs (proxy target)',
        description:
          'Body: `text/plain` NDJSON, one event per line, zlib-deflated when the forwarded path has `dd-evp-encoding=deflate`. `/api/v2/exposures` and `/api/v2/flagevaluation` are decoded and validated; other tracks (rum, logs…) are stored event by event. A malformed line rejects the whole batch (400 naming the line); nothing of it is stored.',
        consumes: ['text/plain'],
        querystring: IntakeQuerySchema,
        response: { 202: IntakeAcceptedSchema, 400: errorRef, 413: errorRef, 415: errorRef },
      },
    },
    async (request, reply) => {
      const target = parseForwardedTarget(request.query.ddforward);
      if (!Buffer.isBuffer(request.body)) {
        throw badRequest('body', 'body must be text/plain NDJSON');
      }
      if (request.headers['content-type']?.startsWith('multipart/form-data')) {
        await intake.storeEvents(
          target.track,
          [{ type: 'multipart', bytes: request.body.length }],
          now(),
        );
        return reply.status(202).send({ track: target.track, accepted: 1 });
      }
      const events = parseNdjson(await decodeBody(request.body, target.deflated));
      const receivedAt = now();
      if (target.track === 'exposures') {
        await intake.storeExposures(checkExposures(events), receivedAt);
      } else if (target.track === 'flagevaluation') {
        await intake.storeFlagEvaluations(checkFlagEvaluations(events), receivedAt);
      } else {
        await intake.storeEvents(
          target.track,
          events.map((line) => line.event),
          receivedAt,
        );
      }
      return reply.status(202).send({ track: target.track, accepted: events.length });
    },
  );
};
