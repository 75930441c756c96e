import fs from 'node:fs';
import { OPERATOR_TOKEN_ENV, operatorHeadersOf } from '@showroom/contracts/security';
import {
  readTrafficProfile,
  type TrafficProfile,
  type TrafficProfileReading,
} from '@showroom/contracts/traffic';

/** How often the control file is read (a change counts within this plus one tick). */
export const CONTROL_POLL_MS = 2_000;

export interface ControlWatcher {
  /** Reads the file now; true when it changed the profile. */
  check(): Promise<boolean>;
  stop(): void;
}

export interface ControlOptions {
  /** The profile the control file's fields are laid over (the run's own, with its flags). */
  base: TrafficProfile;
  onChange: (reading: TrafficProfileReading) => void;
  onProblem: (message: string) => void;
  pollMs?: number;
  read?: (file: string) => Promise<string>;
}

/**
 * Watches a control file: JSON with any profile fields (`rateScale`, `rate`, `journeys`,
 * `paused`, `concurrency`, …), laid over the run's profile whenever its text changes. Polled
 * (every 2 s), so it works on any file system and editor. A file that is missing or not JSON
 * changes nothing (reported once per text); its bad entries are skipped with warnings.
 */
export function watchControlFile(file: string, options: ControlOptions): ControlWatcher {
  const read = options.read ?? ((name: string) => fs.promises.readFile(name, 'utf8'));
  let lastText: string | undefined;
  let missingReported = false;
  let checking: Promise<boolean> | undefined;
  const check = async (): Promise<boolean> => {
    let text: string;
    try {
      text = await read(file);
    } catch {
      if (!missingReported) options.onProblem(`control file ${file} cannot be read`);
      missingReported = true;
      return false;
    }
    missingReported = false;
    if (text === lastText) return false;
    lastText = text;
    if (text.trim() === '') return false;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      options.onProblem(`control file ${file} is not JSON: ${(error as Error).message}`);
      return false;
    }
    try {
      options.onChange(readTrafficProfile(raw, options.base.name, options.base));
      return true;
    } catch (error) {
      options.onProblem((error as Error).message);
      return false;
    }
  };
  const tick = () => {
    checking ??= check().finally(() => (checking = undefined));
  };
  const timer = setInterval(tick, options.pollMs ?? CONTROL_POLL_MS);
  timer.unref?.();
  return {
    check: () => checking ?? check(),
    stop: () => clearInterval(timer),
  };
}

/** Whether `--control` names the shop's control route rather than a file. */
export function isControlUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * Reads the control the shop keeps for every generator (GET /traffic/control): its `control`
 * object as the text a control file would hold, `{}` while none is set.
 */
export async function readControlUrl(url: string): Promise<string> {
  // An operator route once the shop sets OPERATOR_TOKEN (README "Configuration").
  const response = await fetch(url, {
    headers: operatorHeadersOf(process.env[OPERATOR_TOKEN_ENV]),
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const body = (await response.json()) as { control?: unknown };
  return JSON.stringify(body.control ?? {});
}
