import type { Selectable } from 'kysely';
import type { RumViewTable } from '../../db/schema.js';
import type { TimelineEntry, View } from '@showroom/contracts/monitoring';

// How stored rows read in the inspector: durations in ms (the SDK sends ns), one timeline entry
// per view and event with the flat details the page shows.

export function nanosToMillis(value: number | string | null): number | null {
  if (value === null) return null;
  return Math.round(Number(value) / 1e4) / 100;
}

export function toView(row: Selectable<RumViewTable>): View {
  return {
    id: row.id,
    date: Number(row.date),
    url: row.url,
    name: row.name,
    documentVersion: row.document_version,
    loadingTimeMs: nanosToMillis(row.loading_time),
    fcpMs: nanosToMillis(row.first_contentful_paint),
    lcpMs: nanosToMillis(row.largest_contentful_paint),
    inpMs: nanosToMillis(row.interaction_to_next_paint),
    cls: row.cumulative_layout_shift === null ? null : Number(row.cumulative_layout_shift),
    timeSpentMs: nanosToMillis(row.time_spent),
    actionCount: row.action_count,
    errorCount: row.error_count,
    featureFlags: row.feature_flags
      ? (JSON.parse(row.feature_flags) as Record<string, unknown>)
      : {},
  };
}

/** The flat `usr` of a stored event (its JSON payload), or null when it carried none. */
export function usrOf(payload: string): TimelineEntry['usr'] {
  return primitivesOrNull((JSON.parse(payload) as { usr?: unknown }).usr);
}

export function viewEntry(view: View, usrId: string | null, payload: string): TimelineEntry {
  let title = view.name ?? view.url ?? view.id;
  if (view.name === null && view.url !== null) {
    try {
      title = new URL(view.url).pathname;
    } catch {
      // keep the raw URL
    }
  }
  return {
    kind: 'view',
    date: view.date,
    viewId: view.id,
    title,
    usrId,
    usr: usrOf(payload),
    featureFlags: view.featureFlags,
    detail: {
      url: view.url,
      loadingTimeMs: view.loadingTimeMs,
      fcpMs: view.fcpMs,
      lcpMs: view.lcpMs,
      inpMs: view.inpMs,
      cls: view.cls,
      timeSpentMs: view.timeSpentMs,
    },
  };
}

type Detail = TimelineEntry['detail'];

export function eventEntry(
  type: string,
  event: {
    date: number | string;
    view_id: string | null;
    name: string | null;
    usr_id: string | null;
    feature_flags: string | null;
    payload: string;
  },
): TimelineEntry {
  const payload = JSON.parse(event.payload) as Record<string, Record<string, unknown> | undefined>;
  const detail: Detail = {};
  const section = payload[type] ?? {};
  if (type === 'action') {
    detail.actionType = primitive(section.type);
    Object.assign(detail, primitives(payload.context));
  } else if (type === 'error') {
    detail.source = primitive(section.source);
    detail.errorType = primitive(section.type);
    Object.assign(detail, primitives(payload.context));
  } else if (type === 'vital') {
    detail.vitalType = primitive(section.type);
    detail.durationMs = nanosToMillis(
      typeof section.duration === 'number' ? section.duration : null,
    );
  } else if (type === 'long_task') {
    detail.durationMs = nanosToMillis(
      typeof section.duration === 'number' ? section.duration : null,
    );
  }
  return {
    kind: type as TimelineEntry['kind'],
    date: Number(event.date),
    viewId: event.view_id,
    title: event.name ?? type.replace('_', ' '),
    usrId: event.usr_id,
    usr: primitivesOrNull(payload.usr),
    featureFlags: event.feature_flags
      ? (JSON.parse(event.feature_flags) as Record<string, unknown>)
      : null,
    detail,
  };
}

function primitive(value: unknown): string | number | boolean | null {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? value
    : null;
}

function primitivesOrNull(value: unknown): TimelineEntry['usr'] {
  const flat = primitives(value);
  return Object.keys(flat).length > 0 ? (flat as NonNullable<TimelineEntry['usr']>) : null;
}

/** The flat, primitive fields of a context object (at most 20), for the timeline's details. */
function primitives(value: unknown): Detail {
  const detail: Detail = {};
  if (typeof value !== 'object' || value === null) return detail;
  for (const [key, entry] of Object.entries(value).slice(0, 20)) {
    const flat = primitive(entry);
    if (flat !== null) detail[key] = flat;
  }
  return detail;
}
