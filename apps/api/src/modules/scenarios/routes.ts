import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef } from '../../http/errors.js';
import { OperatorHeadersSchema } from '../flags/schemas.js';
import {
  BuildMarkerBodySchema,
  BuildMarkerResultSchema,
  MarkerListSchema,
  MarkerQuerySchema,
} from '@showroom/contracts/markers';
import {
  ProofQuerySchema,
  PROOF_SESSIONS_DEFAULT,
  ScenarioListSchema,
  ScenarioParamsSchema,
  ScenarioProofListSchema,
  ScenarioStartResultSchema,
  ScenarioStopResultSchema,
} from '@showroom/contracts/scenarios';
import type { ScenarioRepository } from './repository.js';
import type { ScenarioService } from './service.js';

export interface ScenarioRoutesOptions {
  scenarios: ScenarioService;
  repository: ScenarioRepository;
}

/** Who starts or stops a scenario when the request does not say. */
const DEFAULT_OPERATOR = 'presenter';

/**
 * The scenario catalogue (docs/decisions/011-scenario-catalogue.md): list, start, stop, proofs;
 * and the change markers the inspector draws (flag changes, scenario starts and stops, builds).
 */
export const scenarioRoutes: FastifyPluginAsyncTypebox<ScenarioRoutesOptions> = async (
  app,
  { scenarios, repository },
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
        headers: OperatorHeadersSchema,
        response: { 200: ScenarioStartResultSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) =>
      scenarios.start(request.params.id, request.headers['x-operator'] ?? DEFAULT_OPERATOR),
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
