import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTrafficProfile, type TrafficProfileReading } from '@showroom/contracts/traffic';

/** The example profiles shipped with the tool. */
export const PROFILES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../profiles',
);

/** A profile file, or the name of a shipped one (`steady` → profiles/steady.json). */
export function resolveProfilePath(nameOrPath: string, cwd: string): string {
  if (/^[a-z0-9-]+$/.test(nameOrPath)) {
    const shipped = path.join(PROFILES_DIR, `${nameOrPath}.json`);
    if (fs.existsSync(shipped)) return shipped;
  }
  return path.resolve(cwd, nameOrPath);
}

export function loadProfile(file: string): TrafficProfileReading {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the traffic profile ${file}: ${(error as Error).message}`);
  }
  return readTrafficProfile(raw, path.basename(file, '.json'));
}
