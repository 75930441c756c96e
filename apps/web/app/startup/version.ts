// App version string, isBeta and errorSHA. All from a UTC clock.
import {
  BETA_BEFORE_UTC_HOUR,
  ERROR_SHA_KEY,
  IS_BETA_KEY,
  RC_BEFORE_UTC_HOUR,
  type KeyValueStorage,
} from './storage-keys';

export type ReleaseChannel = 'beta' | 'rc' | 'release';

/** beta when the UTC hour is below 8, release candidate below 16, else release. */
export function releaseChannel(now: Date): ReleaseChannel {
  const hour = now.getUTCHours();
  if (hour < BETA_BEFORE_UTC_HOUR) return 'beta';
  if (hour < RC_BEFORE_UTC_HOUR) return 'rc';
  return 'release';
}

/** last digit of the UTC year, month, day (no zero padding), e.g. "6.11.22-rc". */
export function appVersion(now: Date): string {
  const base = `${now.getUTCFullYear() % 10}.${now.getUTCMonth() + 1}.${now.getUTCDate()}`;
  const channel = releaseChannel(now);
  return channel === 'release' ? base : `${base}-${channel}`;
}

/**
 * ISO 8601 week-numbering year and week, e.g. "2026-W47". The ISO year (not the calendar
 * year) keeps 2025-12-29, which is in week 1 of 2026, from colliding with January 2025.
 */
export function isoWeekLabel(now: Date): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const weekday = day.getUTCDay() || 7; // Monday = 1 … Sunday = 7
  day.setUTCDate(day.getUTCDate() + 4 - weekday); // the Thursday of this week decides the year
  const isoYear = day.getUTCFullYear();
  const week = Math.ceil(((day.getTime() - Date.UTC(isoYear, 0, 1)) / 86_400_000 + 1) / 7);
  return `${isoYear}-W${String(week).padStart(2, '0')}`;
}

/** 32-bit FNV-1a over UTF-16 code units; identical in browsers and Node (no crypto needed). */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** 8 lowercase hex characters hashed from the ISO year and week. */
export function errorSha(now: Date): string {
  return fnv1a32(isoWeekLabel(now)).toString(16).padStart(8, '0');
}

export interface VersionRecord {
  version: string;
  isBeta: boolean;
  errorSha: string;
}

/**
 * Stores isBeta and errorSHA. Decision: isBeta is written "false" outside beta hours rather
 * than removed, so a reader always finds an explicit "true"/"false" like the other flags.
 */
export function applyVersionStorage(storage: KeyValueStorage, now: Date): VersionRecord {
  const record: VersionRecord = {
    version: appVersion(now),
    isBeta: releaseChannel(now) === 'beta',
    errorSha: errorSha(now),
  };
  storage.setItem(IS_BETA_KEY, String(record.isBeta));
  storage.setItem(ERROR_SHA_KEY, record.errorSha);
  return record;
}
