// The signal a scenario promises, as a rule checked against what the monitoring intake stored
// (docs/decisions/011-scenario-catalogue.md). No TypeBox here: the rule's schema is in
// scenarios.ts; this file is the one evaluator the api, the inspector and the tests share.

/** What the monitoring SDK recorded that a rule can count. */
export const SIGNAL_EVENT_TYPES = ['action', 'error', 'resource', 'long_task', 'view'] as const;
export type SignalEventType = (typeof SIGNAL_EVENT_TYPES)[number];

/** View timings a percentile rule can read (milliseconds). */
export const SIGNAL_VIEW_METRICS = [
  'largest_contentful_paint',
  'loading_time',
  'first_contentful_paint',
] as const;
export type SignalViewMetric = (typeof SIGNAL_VIEW_METRICS)[number];

/** Which events of a session a rule counts. Every given field must hold. */
export interface EventMatch {
  type: SignalEventType;
  /** Exact action name (custom actions: MONITORING_ACTIONS). */
  name?: string;
  /** Regular expression on the error's message. */
  message?: string;
  /** Regular expression on the resource's URL path (views: the view's path). */
  url?: string;
  /** Regular expression on the path of the view the event belongs to. */
  path?: string;
  /** Attributes the event's custom context must carry, compared with ===. */
  context?: Record<string, string | number | boolean>;
  /** Least duration (resources, long tasks), ms. */
  minDurationMs?: number;
}

export type SignalRule =
  | {
      /** Share of sessions with at least `atLeast` matching events, from `minShare` to `maxShare`. */
      kind: 'sessions-with';
      match: EventMatch;
      atLeast?: number;
      minShare: number;
      maxShare?: number;
    }
  | {
      /** A percentile of a view timing over the views whose path matches, above or below a bound. */
      kind: 'view-percentile';
      metric: SignalViewMetric;
      path: string;
      percentile: number;
      above?: number;
      below?: number;
    }
  | {
      /** Matching events of `numerator` over events matching any of `denominator`, in [min, max]. */
      kind: 'ratio';
      numerator: EventMatch;
      denominator: EventMatch[];
      min?: number;
      max?: number;
    };

/** One event as a rule sees it (the api derives it from the stored RUM event). */
export interface SignalEvent {
  type: SignalEventType;
  /** Path of the view the event happened on (views: their own path). */
  path: string | null;
  name?: string | null;
  message?: string | null;
  /** Resources: the URL's path and query. */
  url?: string | null;
  durationMs?: number | null;
  context?: Record<string, unknown> | null;
  /** Views: their timings in ms. */
  metrics?: Partial<Record<SignalViewMetric, number | null>>;
}

export interface SignalSession {
  id: string;
  events: SignalEvent[];
}

export interface SignalMeasure {
  /** The measured value: a share (0–1), a ratio or milliseconds; null when nothing to measure. */
  measured: number | null;
  holds: boolean;
  /** What the value counts, for a person: "3 of 3 sessions", "p75 of 4 views". */
  basis: string;
}

function regex(source: string | undefined): RegExp | null {
  return source === undefined ? null : new RegExp(source);
}

/** True when `event` satisfies every field of `match`. */
export function eventMatches(match: EventMatch, event: SignalEvent): boolean {
  if (event.type !== match.type) return false;
  if (match.name !== undefined && event.name !== match.name) return false;
  const message = regex(match.message);
  if (message && !message.test(event.message ?? '')) return false;
  const url = regex(match.url);
  if (url && !url.test((event.type === 'view' ? event.path : event.url) ?? '')) return false;
  const path = regex(match.path);
  if (path && !path.test(event.path ?? '')) return false;
  if (match.minDurationMs !== undefined && (event.durationMs ?? -1) < match.minDurationMs) {
    return false;
  }
  for (const [key, value] of Object.entries(match.context ?? {})) {
    if (event.context?.[key] !== value) return false;
  }
  return true;
}

/** The `p`th percentile (nearest rank) of `values`, or null when there are none. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? null;
}

const within = (value: number, min: number | undefined, max: number | undefined) =>
  (min === undefined || value >= min) && (max === undefined || value <= max);

/** Measures `rule` over `sessions`. With no session (or nothing to measure) it does not hold. */
export function measureSignal(rule: SignalRule, sessions: SignalSession[]): SignalMeasure {
  switch (rule.kind) {
    case 'sessions-with': {
      const atLeast = rule.atLeast ?? 1;
      const hits = sessions.filter(
        (session) =>
          session.events.filter((event) => eventMatches(rule.match, event)).length >= atLeast,
      ).length;
      const basis = `${hits} of ${sessions.length} sessions`;
      if (sessions.length === 0) return { measured: null, holds: false, basis };
      const share = hits / sessions.length;
      return { measured: share, holds: within(share, rule.minShare, rule.maxShare), basis };
    }
    case 'view-percentile': {
      const path = new RegExp(rule.path);
      const values = sessions.flatMap((session) =>
        session.events
          .filter((event) => event.type === 'view' && path.test(event.path ?? ''))
          .map((event) => event.metrics?.[rule.metric])
          .filter((value): value is number => typeof value === 'number'),
      );
      const measured = percentile(values, rule.percentile);
      const basis = `p${rule.percentile} of ${values.length} views`;
      if (measured === null) return { measured, holds: false, basis };
      const holds =
        (rule.above === undefined || measured > rule.above) &&
        (rule.below === undefined || measured < rule.below);
      return { measured, holds, basis };
    }
    case 'ratio': {
      const events = sessions.flatMap((session) => session.events);
      const numerator = events.filter((event) => eventMatches(rule.numerator, event)).length;
      const denominator = events.filter((event) =>
        rule.denominator.some((match) => eventMatches(match, event)),
      ).length;
      const basis = `${numerator} of ${denominator} events`;
      if (denominator === 0) return { measured: null, holds: false, basis };
      const ratio = numerator / denominator;
      return { measured: ratio, holds: within(ratio, rule.min, rule.max), basis };
    }
  }
}

/** The measured value as a person reads it next to its rule: "67 %", "2,840 ms", "0.42". */
export function formatMeasure(rule: SignalRule, measured: number | null): string {
  if (measured === null) return 'nothing measured';
  if (rule.kind === 'view-percentile') return `${Math.round(measured)} ms`;
  return `${Math.round(measured * 100)} %`;
}

type Json = Record<string, unknown>;

function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Json)[key];
  }
  return current;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** Nanoseconds (what the RUM SDK sends, possibly as a string from SQL) as milliseconds. */
export const nanosToMs = (value: unknown): number | null =>
  typeof value === 'number' || (typeof value === 'string' && value !== '')
    ? Number(value) / 1e6
    : null;

/**
 * The path (and, with `withQuery`, the query) of an absolute URL the SDK recorded; a text that
 * is not an absolute URL is answered as it is.
 */
export function pathOf(url: string | null, withQuery = false): string | null {
  if (url === null) return null;
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)(\?[^#]*)?/i.exec(url);
  if (!match) return url;
  const path = match[1] || '/';
  return withQuery ? `${path}${match[2] ?? ''}` : path;
}

/**
 * One RUM event as the SDK sends it (and the intake stores it) as a rule sees it: views with
 * their timings, actions by name, errors by message, resources and long tasks with durations.
 */
export function signalEventOf(event: Json): SignalEvent | null {
  const type = text(event.type);
  if (type === null || !(SIGNAL_EVENT_TYPES as readonly string[]).includes(type)) return null;
  const context = at(event, 'context');
  const signal: SignalEvent = {
    type: type as SignalEventType,
    path: pathOf(text(at(event, 'view', 'url'))),
    context: typeof context === 'object' && context !== null ? (context as Json) : null,
  };
  switch (type) {
    case 'view':
      signal.metrics = {
        largest_contentful_paint: nanosToMs(at(event, 'view', 'largest_contentful_paint')),
        loading_time: nanosToMs(at(event, 'view', 'loading_time')),
        first_contentful_paint: nanosToMs(at(event, 'view', 'first_contentful_paint')),
      };
      break;
    case 'action':
      signal.name = text(at(event, 'action', 'target', 'name'));
      break;
    case 'error':
      signal.message = text(at(event, 'error', 'message'));
      break;
    case 'resource':
      signal.url = pathOf(text(at(event, 'resource', 'url')), true);
      signal.durationMs = nanosToMs(at(event, 'resource', 'duration'));
      break;
    case 'long_task':
      signal.durationMs = nanosToMs(at(event, 'long_task', 'duration'));
      break;
  }
  return signal;
}
