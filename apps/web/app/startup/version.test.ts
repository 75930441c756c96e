import { describe, expect, it } from 'vitest';
import { ERROR_SHA_KEY, IS_BETA_KEY } from './storage-keys';
import { createMemoryStorage } from './test-support/memory-storage';
import { appVersion, applyVersionStorage, errorSha, fnv1a32, isoWeekLabel } from './version';

const at = (iso: string) => new Date(iso);

describe('appVersion', () => {
  it('R-9.8 last digit of the UTC year, month and day without zero padding', () => {
    expect(appVersion(at('2026-11-22T18:00:00Z'))).toBe('6.11.22');
    expect(appVersion(at('2030-01-05T20:00:00Z'))).toBe('0.1.5');
  });

  it('R-9.8 -beta below UTC hour 8, -rc below 16, nothing from 16', () => {
    expect(
      ['00:00', '07:59', '08:00', '15:59', '16:00', '23:59'].map((t) =>
        appVersion(at(`2026-11-22T${t}:00Z`)),
      ),
    ).toEqual(['6.11.22-beta', '6.11.22-beta', '6.11.22-rc', '6.11.22-rc', '6.11.22', '6.11.22']);
  });

  it('R-9.8 uses UTC fields, not the local ones', () => {
    // 2026-11-22 22:30 in UTC-05:00 is 2026-11-23 03:30 UTC.
    expect(appVersion(at('2026-11-22T22:30:00-05:00'))).toBe('6.11.23-beta');
  });
});

describe('applyVersionStorage', () => {
  it('R-9.8 stores isBeta "true" only for a beta version, "false" otherwise', () => {
    const storage = createMemoryStorage();
    expect(applyVersionStorage(storage, at('2026-11-22T03:00:00Z')).isBeta).toBe(true);
    expect(storage.getItem(IS_BETA_KEY)).toBe('true');
    applyVersionStorage(storage, at('2026-11-22T09:00:00Z'));
    expect(storage.getItem(IS_BETA_KEY)).toBe('false');
    applyVersionStorage(storage, at('2026-11-22T17:00:00Z'));
    expect(storage.getItem(IS_BETA_KEY)).toBe('false');
  });

  it('R-9.9 stores errorSHA and returns the version record', () => {
    const storage = createMemoryStorage();
    const now = at('2026-11-22T12:00:00Z');
    expect(applyVersionStorage(storage, now)).toEqual({
      version: '6.11.22-rc',
      isBeta: false,
      errorSha: errorSha(now),
    });
    expect(storage.getItem(ERROR_SHA_KEY)).toBe(errorSha(now));
  });
});

describe('errorSha', () => {
  it('R-9.9 FNV-1a 32 matches the published test vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('R-9.9 ISO week labels, including weeks that cross a calendar year', () => {
    expect(isoWeekLabel(at('2026-11-22T12:00:00Z'))).toBe('2026-W47');
    expect(isoWeekLabel(at('2026-01-01T00:00:00Z'))).toBe('2026-W01');
    expect(isoWeekLabel(at('2025-12-29T00:00:00Z'))).toBe('2026-W01');
    expect(isoWeekLabel(at('2027-01-01T00:00:00Z'))).toBe('2026-W53');
    expect(isoWeekLabel(at('2021-01-03T23:59:59Z'))).toBe('2020-W53');
  });

  it('R-9.9 is 8 lowercase hex characters, the hash of the ISO year and week', () => {
    const sha = errorSha(at('2026-11-22T12:00:00Z'));
    expect(sha).toMatch(/^[0-9a-f]{8}$/);
    expect(sha).toBe(fnv1a32('2026-W47').toString(16).padStart(8, '0'));
  });

  it('R-9.9 is the same all week (Monday 00:00 to Sunday 23:59 UTC) and changes with the week', () => {
    const monday = errorSha(at('2026-11-16T00:00:00Z'));
    expect(errorSha(at('2026-11-19T13:00:00Z'))).toBe(monday);
    expect(errorSha(at('2026-11-22T23:59:59Z'))).toBe(monday);
    expect(errorSha(at('2026-11-23T00:00:00Z'))).not.toBe(monday);
    expect(errorSha(at('2027-11-22T12:00:00Z'))).not.toBe(errorSha(at('2026-11-22T12:00:00Z')));
  });
});
