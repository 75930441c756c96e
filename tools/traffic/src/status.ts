import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { TrafficProfile } from '@showroom/contracts/traffic';
import type { SessionResult } from './session.js';

export interface LastSession {
  index: number;
  journey: string;
  ok: boolean;
  error: string | null;
  rumSessionId: string | null;
  /** The session in the shop's inspector. */
  inspector: string | null;
}

/** The live status: printed, written to the status file, served on --status-port. */
export interface StatusSnapshot {
  run: string;
  profile: string;
  mode: 'browser' | 'http';
  at: string;
  elapsedSeconds: number;
  paused: boolean;
  /** What the profile asks for now. */
  targetPerMinute: number;
  concurrency: number;
  /** Sessions started in the last minute. */
  sessionsPerMinute: number;
  started: number;
  finished: number;
  failed: number;
  running: number;
  runningByJourney: Record<string, number>;
  profileChangedAt: string | null;
  warnings: string[];
  lastSessions: LastSession[];
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Keeps the figures of a running run; a clock is passed in, so tests use their own. */
export class StatusBoard {
  private startTimes: number[] = [];
  private runningJourneys = new Map<number, string>();
  private finished = 0;
  private failed = 0;
  private last: LastSession[] = [];
  private changedAt: number | null = null;
  readonly warnings: string[] = [];

  constructor(
    private readonly run: string,
    private readonly origin: string,
    private readonly mode: 'browser' | 'http',
    private profile: TrafficProfile,
    private readonly startedAt: number,
    private readonly rateAt: (profile: TrafficProfile, now: number) => number,
  ) {}

  profileChanged(profile: TrafficProfile, now: number, warnings: string[] = []): void {
    this.profile = profile;
    this.changedAt = now;
    this.warnings.push(...warnings);
  }

  sessionStarted(index: number, journey: string, now: number): void {
    this.startTimes.push(now);
    this.runningJourneys.set(index, journey);
  }

  sessionEnded(result: SessionResult): void {
    this.runningJourneys.delete(result.index);
    this.finished += 1;
    if (!result.ok && !result.aborted) this.failed += 1;
    this.last.unshift({
      index: result.index,
      journey: result.scenarioId ? `scenario:${result.scenarioId}` : result.journey,
      ok: result.ok,
      error: result.error,
      rumSessionId: result.rumSessionId,
      inspector: result.rumSessionId
        ? `${this.origin}/inspector/sessions/${result.rumSessionId}`
        : null,
    });
    this.last.length = Math.min(this.last.length, 10);
  }

  snapshot(now: number): StatusSnapshot {
    this.startTimes = this.startTimes.filter((time) => time > now - 60_000);
    const byJourney: Record<string, number> = {};
    for (const journey of this.runningJourneys.values()) {
      byJourney[journey] = (byJourney[journey] ?? 0) + 1;
    }
    return {
      run: this.run,
      profile: this.profile.name,
      mode: this.mode,
      at: new Date(now).toISOString(),
      elapsedSeconds: Math.round((now - this.startedAt) / 1000),
      paused: this.profile.paused,
      targetPerMinute: round(this.rateAt(this.profile, now)),
      concurrency: this.profile.concurrency,
      sessionsPerMinute: this.startTimes.length,
      started: this.finished + this.runningJourneys.size,
      finished: this.finished,
      failed: this.failed,
      running: this.runningJourneys.size,
      runningByJourney: byJourney,
      profileChangedAt: this.changedAt === null ? null : new Date(this.changedAt).toISOString(),
      warnings: this.warnings.slice(-10),
      lastSessions: [...this.last],
    };
  }
}

/** One line of the live status. */
export function statusLine(status: StatusSnapshot): string {
  const running = Object.entries(status.runningByJourney)
    .map(([journey, count]) => `${journey}×${count}`)
    .join(' ');
  const last = status.lastSessions[0];
  return [
    `[${status.elapsedSeconds}s] ${status.profile}${status.paused ? ' (paused)' : ''}`,
    `target ${status.targetPerMinute}/min`,
    `${status.sessionsPerMinute} sessions in the last minute`,
    `done ${status.finished} (${status.failed} failed)`,
    `running ${status.running}${running ? ` [${running}]` : ''}`,
    last?.inspector ? `last ${last.inspector}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Writes the status JSON whole (a reader never sees half a file). */
export function writeStatusFile(file: string, status: StatusSnapshot): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, `${JSON.stringify(status, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

/** Serves the status as JSON on `GET /` (and `/status`) of 127.0.0.1:port. */
export async function serveStatus(
  port: number,
  current: () => StatusSnapshot,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || !['/', '/status'].includes(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(current()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
