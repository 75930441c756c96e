import type { ChangeMarker } from '@showroom/contracts/markers';
import type { MonitoringShopper } from '@showroom/contracts/monitoring';
import { SESSION_LIST_DEFAULT, SESSION_LIST_MAX } from '@showroom/contracts/monitoring-constants';

// How the session inspector pages format what the api's /monitoring routes answer.

/** How many sessions the inspector lists, unless `?limit=` (1–500) says otherwise. */
export const INSPECTOR_SESSION_LIMIT = SESSION_LIST_DEFAULT;

/** The `?limit=` of the inspector page: a whole number from 1 to 500, else the default. */
export function sessionLimit(raw: string | null): number {
  const limit = Number(raw);
  return raw !== null && Number.isInteger(limit) && limit >= 1 && limit <= SESSION_LIST_MAX
    ? limit
    : INSPECTOR_SESSION_LIMIT;
}
/** How often the inspector refreshes its live counts from the api. */
export const LIVE_REFRESH_MS = 5000;

/** `820 ms`, `1.23 s`, or an en dash when not measured. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** `42 %`, or an en dash without a denominator. */
export function formatShare(share: number | null): string {
  return share === null ? '–' : `${Math.round(share * 100)} %`;
}

/** A UTC time of day with seconds: the inspector compares events of one session. */
export function formatTime(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(11, 19);
}

/** `instant_pay: b · show_payments: true, false`. */
export function formatFlags(flags: Record<string, string[]>): string {
  const entries = Object.entries(flags);
  if (entries.length === 0) return '–';
  return entries.map(([key, variants]) => `${key}: ${variants.join(', ')}`).join(' · ');
}

/** The shopper as the pages show it: `ada.lovelace · engineering (a1b2c3d4)`. */
export function describeShopper(shopper: MonitoringShopper | null): string {
  if (!shopper) return 'anonymous';
  const who = [shopper.name ?? shopper.id, shopper.team].filter(Boolean).join(' · ');
  return shopper.id !== null && shopper.name !== null ? `${who} (${shopper.id})` : who;
}

/** `1 session`, `3 sessions`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A before or after value of a change, short: `{"enabled":false}` → `enabled false`. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `${value.length} flag${value.length === 1 ? '' : 's'}`;
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([key]) => key !== 'splits' && key !== 'allocationKey',
  );
  return entries
    .map(
      ([key, inner]) =>
        `${key} ${typeof inner === 'object' ? JSON.stringify(inner) : String(inner)}`,
    )
    .join(', ');
}

/**
 * A change marker as one line: "flag show_payments disable by ada: enabled true → enabled
 * false", "scenario payment-failures start by presenter", "build b-2 deploy (was b-1)",
 * "autopilot busy step 3/8 by autopilot: on slow-cart-query".
 */
export function describeMarker(marker: ChangeMarker): string {
  const head = `${marker.kind} ${marker.subject} ${marker.action} by ${marker.operator}`;
  if (marker.kind === 'flag') {
    return `${head}: ${describeValue(marker.before)} → ${describeValue(marker.after)}`;
  }
  if (marker.kind === 'build') {
    return marker.before ? `${head} (was ${describeValue(marker.before)})` : head;
  }
  if (marker.kind === 'autopilot' && marker.action === 'step') {
    // The autopilot's step (docs/decisions/018-autopilot.md): which scenarios went on and off.
    const step = marker.after as {
      step?: number;
      of?: number;
      turnOn?: string[];
      turnOff?: string[];
    };
    const names = (ids: string[] | undefined) => (ids?.length ? ids.join(', ') : null);
    const changes = [
      names(step.turnOn) && `on ${names(step.turnOn)}`,
      names(step.turnOff) && `off ${names(step.turnOff)}`,
    ].filter(Boolean);
    const position = step.step === undefined ? '' : ` ${step.step + 1}/${step.of ?? '?'}`;
    return `autopilot ${marker.subject} step${position} by ${marker.operator}: ${changes.join('; ') || 'no change'}`;
  }
  if (marker.kind === 'guard') return `${head}: ${describeGuardNumbers(marker.after)}`;
  return head;
}

/**
 * A guard marker's numbers (docs/decisions/019-guarded-rollouts.md): "rollout 25 %, treatment
 * 0.5 (8 sessions) vs control 0 (8 sessions), margin 0.05".
 */
function describeGuardNumbers(after: unknown): string {
  if (typeof after !== 'object' || after === null) return '–';
  const numbers = after as {
    percentage?: number | null;
    control?: { value: number | null; sessions: number };
    treatment?: { value: number | null; sessions: number };
    margin?: number;
  };
  const parts: string[] = [];
  if (typeof numbers.percentage === 'number') parts.push(`rollout ${numbers.percentage} %`);
  const variant = (metric: { value: number | null; sessions: number }) =>
    `${metric.value === null ? '–' : Number(metric.value.toFixed(4))} (${metric.sessions} sessions)`;
  if (numbers.control && numbers.treatment) {
    parts.push(
      `treatment ${variant(numbers.treatment)} vs control ${variant(numbers.control)}, margin ${String(numbers.margin)}`,
    );
  }
  return parts.join(', ') || '–';
}
