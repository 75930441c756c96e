import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  type ChangeMarker,
  TIMELINE_LIMIT_DEFAULT,
  type Timeline,
  type TimelineEntry,
  type TimelineQuery,
} from '@showroom/contracts/markers';
import { GUARD_OPERATOR } from '../flags/guard-service.js';
import type { ScenarioRepository } from './repository.js';
import { madeByScenario } from './service.js';

/** The row number of a marker id ("guard:12" → 12): the order of markers made at one ms. */
const serialOf = (marker: ChangeMarker) => Number(marker.id.slice(marker.id.indexOf(':') + 1));

/** Without `since`, a timeline covers the last hour. */
export const TIMELINE_DEFAULT_SPAN_MS = 3_600_000;
/** The newest errors read for one timeline (runs of them become single entries). */
const ERROR_ROWS_MAX = 5_000;

/**
 * A flag's incident timeline (docs/decisions/020-guarded-rollout-scenario.md): the change
 * markers naming the flag, every scenario, autopilot, guard and build marker, and the browser errors of the sessions that carried it (their
 * variant from rum_session_flags), merged oldest first. Consecutive errors of one message and
 * variant become one entry with a count, so a fault reads as one line between two markers. Flag
 * changes made by the guard or by a scenario are left to those markers.
 */
export async function readIncidentTimeline(
  db: Kysely<Database>,
  markers: Pick<ScenarioRepository, 'listMarkers'>,
  query: TimelineQuery,
  now: number,
): Promise<Timeline> {
  const { flag } = query;
  const since = query.since ?? now - TIMELINE_DEFAULT_SPAN_MS;
  const limit = query.limit ?? TIMELINE_LIMIT_DEFAULT;
  const [ofFlag, all, sessionRows] = await Promise.all([
    markers.listMarkers({ flag, since, limit }),
    // Scenario, autopilot, guard and build markers of any subject: a fault that hurts the flag's
    // sessions is a scenario of another flag.
    markers.listMarkers({ since, limit }),
    db
      .selectFrom('rum_session_flags')
      .select(['session_id', 'variant'])
      .where('flag_key', '=', flag)
      .where('last_seen', '>=', since)
      .execute(),
  ]);
  // A flag change the guard or a scenario made is told by its own marker, with its numbers:
  // each change appears once, by whoever made it.
  const byId = new Map(
    [...ofFlag, ...all.filter((marker) => marker.kind !== 'flag')].map((marker) => [
      marker.id,
      marker,
    ]),
  );
  const changes = [...byId.values()]
    .filter(
      (marker) =>
        marker.kind !== 'flag' ||
        (marker.operator !== GUARD_OPERATOR && !madeByScenario(marker.operator)),
    )
    .sort((a, b) => b.at - a.at || serialOf(b) - serialOf(a))
    .slice(0, limit);
  const variantOf = new Map<string, string | null>();
  for (const row of sessionRows) {
    const seen = variantOf.get(row.session_id);
    // A session that carried two variants is shown without one.
    variantOf.set(row.session_id, seen === undefined || seen === row.variant ? row.variant : null);
  }
  const errors = await db
    .selectFrom('rum_events')
    .select(['session_id', 'name', 'date'])
    .where('event_type', '=', 'error')
    .where('date', '>=', since)
    .where('session_id', 'in', (eb) =>
      eb
        .selectFrom('rum_session_flags')
        .select('session_id')
        .where('flag_key', '=', flag)
        .where('last_seen', '>=', since),
    )
    .orderBy('date', 'desc')
    .limit(ERROR_ROWS_MAX)
    .execute();

  type Item =
    | { at: number; order: number; marker: TimelineEntry & { kind: 'marker' } }
    | {
        at: number;
        order: number;
        error: { message: string; variant: string | null; session: string };
      };
  const items: Item[] = [
    // Markers come newest first; among equal times the earlier-made one stays first.
    ...[...changes].reverse().map((marker, index) => ({
      at: marker.at,
      order: index,
      marker: { kind: 'marker' as const, at: marker.at, marker },
    })),
    ...errors.map((row, index) => ({
      at: Number(row.date),
      order: index,
      error: {
        message: row.name ?? '(no message)',
        variant: row.session_id === null ? null : (variantOf.get(row.session_id) ?? null),
        session: row.session_id ?? '',
      },
    })),
  ];
  items.sort((a, b) => a.at - b.at || a.order - b.order);

  const entries: TimelineEntry[] = [];
  let run: { entry: TimelineEntry & { kind: 'errors' }; sessions: Set<string> } | undefined;
  for (const item of items) {
    if ('marker' in item) {
      run = undefined;
      entries.push(item.marker);
      continue;
    }
    const { message, variant, session } = item.error;
    if (run && run.entry.message === message && run.entry.variant === variant) {
      run.entry.count += 1;
      run.entry.until = item.at;
      run.sessions.add(session);
      run.entry.sessions = run.sessions.size;
      continue;
    }
    run = {
      entry: {
        kind: 'errors',
        at: item.at,
        until: item.at,
        message,
        variant,
        count: 1,
        sessions: 1,
      },
      sessions: new Set([session]),
    };
    entries.push(run.entry);
  }
  return { flag, since, entries: entries.slice(-limit) };
}
