import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef } from '../../http/errors.js';
import { OperatorHeadersSchema } from '../flags/schemas.js';
import {
  BuildMarkerBodySchema,
  BuildMarkerResultSchema,
  MarkerListSchema,
  MarkerQuerySchema,
  TimelineQuerySchema,
  TimelineSchema,
} from '@showroom/contracts/markers';
import {
  ProofQuerySchema,
  PROOF_SESSIONS_DEFAULT,
  ScenarioListSchema,
  ScenarioParamsSchema,
  ScenarioProofListSchema,
  ScenarioStartQuerySchema,
  ScenarioStartResultSchema,
  ScenarioStopResultSchema,
} from '@showroom/contracts/scenarios';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { readIncidentTimeline } from './incident-timeline.js';
import type { ScenarioRepository } from './repository.js';
import type { ScenarioService } from './service.js';

export interface ScenarioRoutesOptions {
  scenarios: ScenarioService;
  repository: ScenarioRepository;
  /** The incident timeline reads the stored browser errors too. */
  db: Kysely<Database>;
  now: () => number;
}

/** Who starts or stops a scenario when the request does not say. */
const DEFAULT_OPERATOR = 'presenter';

/**
 * The scenario catalogue (docs/decisions/011-scenario-catalogue.md): list, start, stop, proofs;
 * and the change markers the inspector draws (flag changes, scenario starts and stops, builds).
 */
export const scenarioRoutes: FastifyPluginAsyncTypebox<ScenarioRoutesOptions> = async (
  app,
  { scenarios, repository, db, now },
) => {
  app.get(
    '/scenarios',
    {
      schema: {
        tags: ['scenarios'],
        summary: 'Every scenario of the catalogue, with its link, and the runs not stopped yet',
        response: { 200: ScenarioListSchema },
      },
    },
    async () => ({ ...scenarios.list(), active: await scenarios.activeRuns() }),
  );

  app.get(
    '/scenarios/proofs',
    {
      schema: {
        tags: ['scenarios'],
        summary:
          "Each scenario's promised signal, measured over the latest sessions its link opened",
        querystring: ProofQuerySchema,
        response: { 200: ScenarioProofListSchema, 400: errorRef },
      },
    },
    async (request) => scenarios.proofs(request.query.sessions ?? PROOF_SESSIONS_DEFAULT),
  );

  app.post(
    '/scenarios/:id/start',
    {
      schema: {
        tags: ['scenarios'],
        summary:
          'Starts a scenario: makes its flag changes (until stopped) and answers the link to open',
        params: ScenarioParamsSchema,
        querystring: ScenarioStartQuerySchema,
        headers: OperatorHeadersSchema,
        response: { 200: ScenarioStartResultSchema, 400: errorRef, 404: errorRef, 409: errorRef },
      },
    },
    async (request) =>
      scenarios.start(
        request.params.id,
        request.headers['x-operator'] ?? DEFAULT_OPERATOR,
        request.query.minuteMs,
      ),
  );

  app.post(
    '/scenarios/:id/stop',
    {
      schema: {
        tags: ['scenarios'],
        summary: 'Stops a running scenario: puts back the flags it changed',
        params: ScenarioParamsSchema,
        headers: OperatorHeadersSchema,
        response: { 200: ScenarioStopResultSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => ({
      run: await scenarios.stop(
        request.params.id,
        request.headers['x-operator'] ?? DEFAULT_OPERATOR,
      ),
    }),
  );

  app.get(
    '/markers',
    {
      schema: {
        tags: ['scenarios'],
        summary: 'Change markers, newest first: flag changes, scenario starts and stops, builds',
        querystring: MarkerQuerySchema,
        response: { 200: MarkerListSchema, 400: errorRef },
      },
    },
    async (request) => ({ markers: await repository.listMarkers(request.query) }),
  );

  app.get(
    '/markers/timeline',
    {
      schema: {
        tags: ['scenarios'],
        summary:
          "A flag's incident timeline, oldest first: its change markers and the browser errors of the sessions that carried it",
        querystring: TimelineQuerySchema,
        response: { 200: TimelineSchema, 400: errorRef },
      },
    },
    async (request) => readIncidentTimeline(db, repository, request.query, now()),
  );

  app.post(
    '/markers/builds',
    {
      schema: {
        tags: ['scenarios'],
        summary: 'Records that a build started serving (the web server calls it at start)',
        body: BuildMarkerBodySchema,
        response: { 200: BuildMarkerResultSchema, 400: errorRef },
      },
    },
    async (request) => ({
      marker: await scenarios.recordBuild(request.body.buildId, request.body.operator ?? 'web'),
    }),
  );
};
