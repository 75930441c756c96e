import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  nanosToMs,
  pathOf,
  signalEventOf,
  type SignalEvent,
  type SignalSession,
} from '@showroom/contracts/scenario-signals';

/** Event types a rule can count besides views (the stored RUM events' `event_type`). */
const COUNTED_TYPES = ['action', 'error', 'resource', 'long_task'] as const;

/**
 * The latest `limit` monitored sessions opened by a scenario's link, with their views and the
 * events a rule can count, newest session first.
 */
export async function loadScenarioSessions(
  db: Kysely<Database>,
  scenarioId: string,
  limit: number,
): Promise<SignalSession[]> {
  const sessions = await db
    .selectFrom('rum_sessions')
    .select('id')
    .where('scenario', '=', scenarioId)
    .orderBy('last_seen', 'desc')
    .limit(limit)
    .execute();
  const ids = sessions.map((session) => session.id);
  if (ids.length === 0) return [];
  const [views, events] = await Promise.all([
    db
      .selectFrom('rum_views')
      .select([
        'session_id',
        'url',
        'largest_contentful_paint',
        'loading_time',
        'first_contentful_paint',
      ])
      .where('session_id', 'in', ids)
      .execute(),
    db
      .selectFrom('rum_events')
      .select(['session_id', 'event_type', 'payload'])
      .where('session_id', 'in', ids)
      .where('event_type', 'in', COUNTED_TYPES)
      .execute(),
  ]);
  const bySession = new Map<string, SignalEvent[]>(ids.map((id) => [id, []]));
  for (const view of views) {
    bySession.get(view.session_id)?.push({
      type: 'view',
      path: pathOf(view.url),
      metrics: {
        largest_contentful_paint: nanosToMs(view.largest_contentful_paint),
        loading_time: nanosToMs(view.loading_time),
        first_contentful_paint: nanosToMs(view.first_contentful_paint),
      },
    });
  }
  for (const event of events) {
    if (event.session_id === null) continue;
    const signal = signalEventOf(JSON.parse(event.payload) as Record<string, unknown>);
    if (signal) bySession.get(event.session_id)?.push(signal);
  }
  return ids.map((id) => ({ id, events: bySession.get(id) ?? [] }));
}
