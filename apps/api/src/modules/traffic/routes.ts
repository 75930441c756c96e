import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import {
  TRAFFIC_CONTROL_ROUTE,
  TrafficControlSchema,
  TrafficControlStateSchema,
  type TrafficControl,
  type TrafficControlState,
} from '@showroom/contracts/traffic';
import type { Database } from '../../db/schema.js';
import { errorRef } from '../../http/errors.js';
import { OperatorHeadersSchema } from '../flags/schemas.js';

const CONTROL_ID = 'default';

/**
 * The traffic generators' control in the database (README "Traffic generator", docs/architecture.md
 * "Scaling"): `npm run traffic -- --control <base>/api/traffic/control` reads it every 2 s, so
 * one change steers every generator replica at once, whichever api replica it reaches.
 */
export const trafficRoutes: FastifyPluginAsyncTypebox<{
  db: Kysely<Database>;
  now: () => number;
}> = async (app, { db, now }) => {
  const read = async (): Promise<TrafficControlState> => {
    const row = await db
      .selectFrom('traffic_control')
      .select(['control', 'updated_at', 'updated_by'])
      .where('id', '=', CONTROL_ID)
      .executeTakeFirst();
    return row
      ? {
          control: JSON.parse(row.control) as TrafficControl,
          updatedAt: Number(row.updated_at),
          updatedBy: row.updated_by,
        }
      : { control: null, updatedAt: null, updatedBy: null };
  };

  app.get(
    TRAFFIC_CONTROL_ROUTE,
    {
      schema: {
        tags: ['traffic'],
        summary: "The traffic generators' control: profile fields laid over their profiles",
        response: { 200: TrafficControlStateSchema },
      },
    },
    read,
  );

  app.put(
    TRAFFIC_CONTROL_ROUTE,
    {
      schema: {
        tags: ['traffic'],
        summary: 'Steer every running traffic generator (rate, mix, pause) within seconds',
        headers: OperatorHeadersSchema,
        body: TrafficControlSchema,
        response: { 200: TrafficControlStateSchema, 400: errorRef },
      },
    },
    async (request) => {
      const row = {
        id: CONTROL_ID,
        control: JSON.stringify(request.body),
        updated_at: now(),
        updated_by: request.headers['x-operator'] ?? 'anonymous',
      };
      await db
        .insertInto('traffic_control')
        .values(row)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({
            control: row.control,
            updated_at: row.updated_at,
            updated_by: row.updated_by,
          }),
        )
        .execute();
      return read();
    },
  );

  app.delete(
    TRAFFIC_CONTROL_ROUTE,
    {
      schema: {
        tags: ['traffic'],
        summary: 'Clear the control: every generator goes back to its own profile',
        headers: OperatorHeadersSchema,
        response: { 200: TrafficControlStateSchema },
      },
    },
    async () => {
      await db.deleteFrom('traffic_control').where('id', '=', CONTROL_ID).execute();
      return read();
    },
  );
};
