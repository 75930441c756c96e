import fs from 'node:fs';
import path from 'node:path';

/**
 * Which build this web server serves (docs/requirements.md ). `npm run build`
 * writes `build/build-meta.json` after the client and server bundles (scripts/write-build-meta.mjs):
 * the id is the build's UTC time and React Router's client-manifest version, e.g.
 * `20260124-153000-baa8ce96`, so every build has its own and the same sources built twice differ.
 */
export interface BuildMeta {
  id: string;
  /** When the build was made, ISO 8601. */
  timestamp: string;
}

/** What a document tells the browser about its build (the root loader's `build`). */
export interface DocumentBuild {
  id: string;
  /** How often the browser asks `/builds/latest.json`; 0 means never (chunk errors still ask). */
  pollIntervalMs: number;
}

export const BUILD_META_FILE = 'build-meta.json';

/**
 * The new-build check interval (R-9.1 leaves it open): every 5 minutes, so an open tab learns of
 * a deploy within minutes at one small request per tab each time. BUILD_POLL_INTERVAL_MS changes it.
 */
export const DEFAULT_BUILD_POLL_INTERVAL_MS = 300_000;
/** Below this a poll would be a request storm, not a check. */
export const MIN_BUILD_POLL_INTERVAL_MS = 1_000;

/** Build ids are letters, digits, `-` and `_`: they are a file name in `/builds/meta/{id}.json`. */
export const BUILD_ID_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;

/** `20260124-153000`: a time as the first part of a build id. */
export function buildTimeLabel(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

/**
 * The build's meta file, or, when it is missing or unreadable (a build made before build ids
 * existed), an id made now from the client-manifest version, with a warning.
 */
export function readBuildMeta(
  buildDir: string,
  manifestVersion: string,
  warn: (message: string) => void,
  now: Date = new Date(),
): BuildMeta {
  const file = path.join(buildDir, BUILD_META_FILE);
  try {
    const meta = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BuildMeta>;
    if (typeof meta.id === 'string' && BUILD_ID_PATTERN.test(meta.id)) {
      return { id: meta.id, timestamp: String(meta.timestamp ?? now.toISOString()) };
    }
    warn(`${file} has no usable id`);
  } catch (error) {
    warn(`${file} cannot be read (${(error as Error).message})`);
  }
  const id = `${buildTimeLabel(now)}-${manifestVersion.replace(/[^A-Za-z0-9_-]/g, '') || 'unknown'}`;
  warn(`Showroom web: using build id ${id}; rebuild (npm run build -w apps/web) to fix it`);
  return { id, timestamp: now.toISOString() };
}

/** BUILD_POLL_INTERVAL_MS: milliseconds, 0 (no polling) or at least MIN_BUILD_POLL_INTERVAL_MS. */
export function buildPollInterval(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BUILD_POLL_INTERVAL_MS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_BUILD_POLL_INTERVAL_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || (value !== 0 && value < MIN_BUILD_POLL_INTERVAL_MS)) {
    throw new Error(
      `BUILD_POLL_INTERVAL_MS must be 0 (no polling) or a whole number of milliseconds from ${MIN_BUILD_POLL_INTERVAL_MS}, got "${raw}"`,
    );
  }
  return value;
}
