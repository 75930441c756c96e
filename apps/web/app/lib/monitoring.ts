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
