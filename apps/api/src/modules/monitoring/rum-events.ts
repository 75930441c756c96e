import { SCENARIO_ID_PATTERN } from '@showroom/contracts/scenario-link';
import { Type } from 'typebox';

/**
 * RUM events as @datadog/browser-rum sends them on the rum track, reduced to the rows the
 * monitoring tables keep (the SDK's wire format: docs/decisions/005-monitoring-intake-and-inspector.md): `date` is
 * epoch ms, durations are nanoseconds, a view is sent again with a rising
 * `_dd.document_version`, `usr` and `feature_flags` ride on the events.
 */

/** Event types stored in the rum_* tables; anything else (telemetry…) stays a generic intake event. */
export const RUM_EVENT_TYPES = [
  'view',
  'action',
  'error',
  'resource',
  'long_task',
  'vital',
] as const;
export type RumEventType = (typeof RUM_EVENT_TYPES)[number];

export function isRumEventType(type: unknown): type is RumEventType {
  return typeof type === 'string' && (RUM_EVENT_TYPES as readonly string[]).includes(type);
}

const Id = Type.String({ minLength: 1, maxLength: 128 });
const rumFields = {
  type: Type.String(),
  date: Type.Number({ minimum: 0, description: 'Epoch ms' }),
  session: Type.Object({ id: Id }),
  view: Type.Object({ id: Id }),
};

/** What every stored RUM event must carry. */
export const RumEventSchema = Type.Object(rumFields);
/** A view also carries its document version. */
export const RumViewEventSchema = Type.Object({
  ...rumFields,
  _dd: Type.Object({ document_version: Type.Integer({ minimum: 0 }) }),
});

/** Longest text kept in a name column (error message, resource URL…). */
const MAX_NAME = 512;
/** Longest flag key or variant kept; more flags than this per event are ignored. */
const MAX_FLAG_TEXT = 256;
const MAX_FLAGS_PER_EVENT = 64;

export interface RumSessionRow {
  id: string;
  application_id: string | null;
  first_seen: number;
  last_seen: number;
  usr_id: string | null;
  usr_name: string | null;
  usr_email: string | null;
  usr_team: string | null;
  service: string | null;
  version: string | null;
  has_replay: number;
  received_at: number;
  scenario: string | null;
}

export interface RumViewRow {
  id: string;
  session_id: string;
  document_version: number;
  date: number;
  url: string | null;
  name: string | null;
  loading_time: number | null;
  first_contentful_paint: number | null;
  largest_contentful_paint: number | null;
  interaction_to_next_paint: number | null;
  cumulative_layout_shift: number | null;
  time_spent: number | null;
  action_count: number;
  error_count: number;
  usr_id: string | null;
  feature_flags: string | null;
  payload: string;
  received_at: number;
}

export interface RumEventRow {
  event_key: string | null;
  session_id: string;
  view_id: string;
  event_type: string;
  date: number;
  name: string | null;
  usr_id: string | null;
  feature_flags: string | null;
  payload: string;
  received_at: number;
}

export interface RumSessionFlagRow {
  session_id: string;
  flag_key: string;
  variant: string;
  first_seen: number;
  last_seen: number;
}

/** One batch's rows: sessions and flags merged, views reduced to their highest version. */
export interface RumRows {
  sessions: RumSessionRow[];
  views: RumViewRow[];
  events: RumEventRow[];
  flags: RumSessionFlagRow[];
}

type Event = Record<string, unknown>;

/**
 * Turns validated RUM events (see RumEventSchema) into the rows to upsert, sorted by key.
 * `texts[i]`, when given, is the JSON the intake received for `events[i]` (its NDJSON line): it
 * becomes the payload as is, instead of serializing the parsed event again.
 */
export function toRumRows(
  events: readonly Event[],
  receivedAt: number,
  texts?: readonly string[],
): RumRows {
  const sessions = new Map<string, RumSessionRow>();
  const views = new Map<string, RumViewRow>();
  const flags = new Map<string, RumSessionFlagRow>();
  const rows: RumEventRow[] = [];
  // Session and event key, as rum_events stores an event once (migration 013); NUL never occurs
  // in either (the intake refuses it).
  const eventKeys = new Set<string>();

  for (const [index, event] of events.entries()) {
    const payloadOf = () => texts?.[index] ?? JSON.stringify(event);
    const type = text(event.type) ?? '';
    const sessionId = text(path(event, 'session', 'id')) ?? '';
    const viewId = text(path(event, 'view', 'id')) ?? '';
    const date = Math.round(num(event.date) ?? 0);
    const usr = userOf(event);
    const featureFlags = flagsOf(event);

    const session = sessions.get(sessionId) ?? {
      id: sessionId,
      application_id: text(path(event, 'application', 'id')),
      first_seen: date,
      last_seen: date,
      usr_id: null,
      usr_name: null,
      usr_email: null,
      usr_team: null,
      service: text(event.service),
      version: text(event.version),
      has_replay: 0,
      received_at: receivedAt,
      scenario: null,
    };
    session.scenario ??= scenarioOf(event);
    session.first_seen = Math.min(session.first_seen, date);
    session.last_seen = Math.max(session.last_seen, date);
    if (usr.usr_id !== null || usr.usr_name !== null || usr.usr_email !== null) {
      Object.assign(session, usr);
    }
    sessions.set(sessionId, session);

    for (const [key, variant] of featureFlags ?? []) {
      const id = JSON.stringify([sessionId, key, variant]);
      const flag = flags.get(id) ?? {
        session_id: sessionId,
        flag_key: key,
        variant,
        first_seen: date,
        last_seen: date,
      };
      flag.first_seen = Math.min(flag.first_seen, date);
      flag.last_seen = Math.max(flag.last_seen, date);
      flags.set(id, flag);
    }
    // The event's own values (a boolean stays a boolean); the pairs above are for counting.
    const flagsJson = featureFlags ? JSON.stringify(event.feature_flags) : null;

    if (type === 'view') {
      const version = num(path(event, '_dd', 'document_version')) ?? 0;
      const previous = views.get(viewId);
      if (previous && previous.document_version >= version) continue;
      views.set(viewId, {
        id: viewId,
        session_id: sessionId,
        document_version: version,
        date,
        url: clip(text(path(event, 'view', 'url'))),
        name: clip(text(path(event, 'view', 'name'))),
        loading_time: int(path(event, 'view', 'loading_time')),
        first_contentful_paint: int(path(event, 'view', 'first_contentful_paint')),
        largest_contentful_paint: int(path(event, 'view', 'largest_contentful_paint')),
        interaction_to_next_paint: int(path(event, 'view', 'interaction_to_next_paint')),
        cumulative_layout_shift: num(path(event, 'view', 'cumulative_layout_shift')),
        time_spent: int(path(event, 'view', 'time_spent')),
        action_count: int(path(event, 'view', 'action', 'count')) ?? 0,
        error_count: int(path(event, 'view', 'error', 'count')) ?? 0,
        usr_id: usr.usr_id,
        feature_flags: flagsJson,
        payload: payloadOf(),
        received_at: receivedAt,
      });
      continue;
    }

    const id = text(path(event, type, 'id'));
    const eventKey = id === null ? null : `${type}:${id}`;
    if (eventKey !== null) {
      const stored = `${sessionId}\u0000${eventKey}`;
      if (eventKeys.has(stored)) continue;
      eventKeys.add(stored);
    }
    rows.push({
      event_key: eventKey,
      session_id: sessionId,
      view_id: viewId,
      event_type: type,
      date,
      name: clip(eventName(type, event)),
      usr_id: usr.usr_id,
      feature_flags: flagsJson,
      payload: payloadOf(),
      received_at: receivedAt,
    });
  }

  const byKey = <T>(map: Map<string, T>) =>
    [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  return { sessions: byKey(sessions), views: byKey(views), events: rows, flags: byKey(flags) };
}

/** The name shown for an event: the action's name, the error's message, the vital's name… */
function eventName(type: string, event: Event): string | null {
  switch (type) {
    case 'action':
      return text(path(event, 'action', 'target', 'name'));
    case 'error':
      return text(path(event, 'error', 'message'));
    case 'vital':
      return text(path(event, 'vital', 'name'));
    case 'resource':
      return text(path(event, 'resource', 'url'));
    default:
      return null;
  }
}

/**
 * `usr` as set by `setUser`: a sample shopper has an id, the placeholder (isJohnDoe) only a name
 * and e-mail; an anonymous session has none of them (only the SDK's `anonymous_id`).
 */
function userOf(event: Event) {
  const id = path(event, 'usr', 'id');
  return {
    usr_id: clip(typeof id === 'number' ? String(id) : text(id)),
    usr_name: clip(text(path(event, 'usr', 'name'))),
    usr_email: clip(text(path(event, 'usr', 'email'))),
    usr_team: clip(text(path(event, 'usr', 'team'))),
  };
}

/** `feature_flags` as [key, variant text] pairs; a non-string value is kept as its JSON. */
function flagsOf(event: Event): [string, string][] | null {
  const flags = event.feature_flags;
  if (typeof flags !== 'object' || flags === null || Array.isArray(flags)) return null;
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(flags)) {
    if (pairs.length === MAX_FLAGS_PER_EVENT) break;
    if (key === '' || key.length > MAX_FLAG_TEXT || value === undefined) continue;
    const variant = typeof value === 'string' ? value : JSON.stringify(value);
    pairs.push([key, variant.slice(0, MAX_FLAG_TEXT)]);
  }
  return pairs.length > 0 ? pairs : null;
}

function path(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function int(value: unknown): number | null {
  const n = num(value);
  return n === null ? null : Math.round(n);
}

function clip(value: string | null): string | null {
  return value === null ? null : value.slice(0, MAX_NAME);
}

/** The scenario tag the page's start-up gave the SDK's global context (docs/requirements.md ). */
function scenarioOf(event: Event): string | null {
  const scenario = text(path(event, 'context', 'scenario'));
  return scenario !== null && SCENARIO_ID_PATTERN.test(scenario) ? scenario : null;
}
