import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, errorRef, notFound } from '../../http/errors.js';
import type { MonitoringStore } from '../monitoring/store.js';
import { storeMultipartBatch, storeNdjsonBatch } from './batches.js';
import { parseForwardedTarget } from './decode.js';
import type { IntakeRepository } from './repository.js';
import {
  IntakeAcceptedSchema,
  IntakeQuerySchema,
  MAX_INTAKE_BODY_BYTES,
  ProfilingQuotaSchema,
} from './schemas.js';

export interface IntakeRoutesOptions {
  intake: IntakeRepository;
  monitoring: MonitoringStore;
  now: () => number;
}

/**
 * `POST /intake?ddforward=…`: the browser SDKs' `proxy` target. Exposures and flag evaluations
 * are decoded into their own tables, RUM events and replay segments into the monitoring
 * tables; every other track is kept event by event.
 */
export const intakeRoutes: FastifyPluginAsyncTypebox<IntakeRoutesOptions> = async (
  app,
  { intake, monitoring, now },
) => {
  // The SDKs send NDJSON as text/plain (deflated when dd-evp-encoding=deflate): read raw bytes.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'buffer', bodyLimit: MAX_INTAKE_BODY_BYTES },
    (_request, body, done) => done(null, body),
  );

  // Replay segments and profiles arrive as multipart/form-data: read whole, then split.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_INTAKE_BODY_BYTES },
    (_request, body, done) => done(null, body),
  );
  // A compressed batch is a Uint8Array body, which fetch and sendBeacon send without any
  // content-type: read it (and any other unknown type) as bytes too.
  app.addContentTypeParser(
    '*',
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
          'Body: `text/plain` NDJSON, one event per line, zlib-deflated when the forwarded path has `dd-evp-encoding=deflate` (then often sent without a content-type). `/api/v2/exposures` and `/api/v2/flagevaluation` are decoded and validated; `/api/v2/rum` events go to the monitoring tables (views keep their highest `_dd.document_version`; telemetry is kept as is); `/api/v2/replay` is `multipart/form-data` with a deflated `segment` part and an `event` JSON part; other tracks are stored event by event. A malformed line or part rejects the whole batch (400 naming it); nothing of it is stored.',
        consumes: ['text/plain', 'multipart/form-data'],
        querystring: IntakeQuerySchema,
        response: { 202: IntakeAcceptedSchema, 400: errorRef, 413: errorRef, 415: errorRef },
      },
    },
    async (request, reply) => {
      const target = parseForwardedTarget(request.query.ddforward);
      if (!Buffer.isBuffer(request.body)) {
        throw badRequest('body', 'body must be text/plain NDJSON or multipart/form-data');
      }
      const stores = { intake, monitoring, now };
      const contentType = request.headers['content-type'] ?? '';
      const accepted = /^multipart\//i.test(contentType)
        ? await storeMultipartBatch(stores, target, request.body, contentType)
        : await storeNdjsonBatch(stores, target, request.body);
      return reply.status(202).send({ track: target.track, accepted });
    },
  );
};
