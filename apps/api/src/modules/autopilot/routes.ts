import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTOPILOT_PAUSE_ROUTE,
  AUTOPILOT_RESUME_ROUTE,
  AUTOPILOT_ROUTE,
  AUTOPILOT_START_ROUTE,
  AUTOPILOT_STOP_ROUTE,
  AutopilotStartBodySchema,
  AutopilotStateSchema,
} from '@showroom/contracts/autopilot';
import { errorRef } from '../../http/errors.js';
// Who asks is named as on the flag and scenario routes.
import { OperatorHeadersSchema } from '../flags/schemas.js';
import type { AutopilotService } from './service.js';

/** Who starts, pauses or stops the autopilot when the request does not say. */
const DEFAULT_OPERATOR = 'presenter';

/**
 * The autopilot's controls (docs/decisions/018-autopilot.md), operator routes
 * (http/security.ts OPERATOR_ROUTES): its state and schedule, start, pause, resume and stop.
 * A control that does not apply to the current state answers 409 AUTOPILOT_STATE.
 */
export const autopilotRoutes: FastifyPluginAsyncTypebox<{ autopilot: AutopilotService }> = async (
  app,
  { autopilot },
) => {
  const operatorOf = (headers: { 'x-operator'?: string }) =>
    headers['x-operator'] ?? DEFAULT_OPERATOR;

  app.get(
    AUTOPILOT_ROUTE,
    {
      schema: {
        tags: ['scenarios'],
        summary: "The autopilot's state and its planned schedule, each step with when it is due",
        response: { 200: AutopilotStateSchema },
      },
    },
    async () => autopilot.state(),
  );

  app.post(
    AUTOPILOT_START_ROUTE,
    {
      schema: {
        tags: ['scenarios'],
        summary: 'Starts the autopilot: a schedule planned from a profile and a seed',
        headers: OperatorHeadersSchema,
        body: AutopilotStartBodySchema,
        response: { 200: AutopilotStateSchema, 400: errorRef, 409: errorRef },
      },
    },
    async (request) =>
      autopilot.start(request.body.profile, request.body.seed, operatorOf(request.headers)),
  );

  for (const [url, summary, action] of [
    [
      AUTOPILOT_PAUSE_ROUTE,
      'Pauses the schedule; the scenarios it has on stay on',
      (operator: string) => autopilot.pause(operator),
    ],
    [
      AUTOPILOT_RESUME_ROUTE,
      'Resumes a paused schedule; what was due later is due later by the pause',
      (operator: string) => autopilot.resume(operator),
    ],
    [
      AUTOPILOT_STOP_ROUTE,
      'Stops the autopilot and turns off the scenarios it turned on',
      (operator: string) => autopilot.stop(operator),
    ],
  ] as const) {
    app.post(
      url,
      {
        schema: {
          tags: ['scenarios'],
          summary,
          headers: OperatorHeadersSchema,
          response: { 200: AutopilotStateSchema, 400: errorRef, 409: errorRef },
        },
      },
      async (request) => action(operatorOf(request.headers)),
    );
  }
};
