import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTrafficProfile, type TrafficProfileReading } from '@showroom/contracts/traffic';
import { CONTROL_POLL_MS, isControlUrl, readControlUrl, watchControlFile } from './control.js';
import { rateAt } from './rate.js';
import { Scheduler } from './scheduler.js';
import { StatusBoard } from './status.js';

const base = readTrafficProfile({
  name: 'steady',
  rate: { 0: 6 },
  journeys: { browse: 1 },
}).profile;

describe('the control file', () => {
  let file: string | undefined;
  const read = async () => {
    if (file === undefined) throw new Error('ENOENT');
    return file;
  };
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-10T09:00:00Z') });
    file = undefined;
  });
  afterEach(() => vi.useRealTimers());

  function running() {
    const scheduler = new Scheduler(base);
    const status = new StatusBoard('run', 'http://shop', 'browser', base, Date.now(), (p, now) =>
      rateAt(p, new Date(now)),
    );
    const problems: string[] = [];
    const changes: TrafficProfileReading[] = [];
    const watcher = watchControlFile('control.json', {
      base,
      read,
      onChange: (reading) => {
        changes.push(reading);
        scheduler.setProfile(reading.profile);
        status.profileChanged(reading.profile, Date.now(), reading.warnings);
      },
      onProblem: (message) => problems.push(message),
    });
    return { scheduler, status, problems, changes, watcher };
  }

  it('polls at most every 5 s', () => {
    expect(CONTROL_POLL_MS).toBeLessThanOrEqual(5_000);
  });

  it('changes rate and mix in the live status within 10 seconds of the file changing', async () => {
    const { scheduler, status, changes, watcher } = running();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(status.snapshot(Date.now()).targetPerMinute).toBe(6);
    file = JSON.stringify({ rateScale: 5, journeys: { checkout: 1 } });
    const changedAt = Date.now();
    while (status.snapshot(Date.now()).targetPerMinute !== 30) {
      expect(Date.now() - changedAt).toBeLessThan(10_000);
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(scheduler.current.journeys).toEqual({ checkout: 1 });
    expect(status.snapshot(Date.now()).profileChangedAt).not.toBeNull();
    expect(changes).toHaveLength(1);
    // The same text again changes nothing; pausing does.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(changes).toHaveLength(1);
    file = JSON.stringify({ paused: true });
    await vi.advanceTimersByTimeAsync(CONTROL_POLL_MS);
    expect(status.snapshot(Date.now())).toMatchObject({ paused: true, targetPerMinute: 0 });
    // Laid over the run's profile, not over the last control text.
    expect(scheduler.current.rateScale).toBe(1);
    watcher.stop();
  });

  it('keeps the profile when the file is not JSON, and skips its bad entries with a warning', async () => {
    const { scheduler, problems, status, watcher } = running();
    file = '{ "rateScale": ';
    await vi.advanceTimersByTimeAsync(CONTROL_POLL_MS);
    expect(problems).toEqual([expect.stringMatching(/^control file control.json is not JSON/)]);
    expect(scheduler.current).toEqual(base);
    file = JSON.stringify({ rateScale: 2, journeys: { browse: 1, fly: 2 } });
    await vi.advanceTimersByTimeAsync(CONTROL_POLL_MS);
    expect(scheduler.current.rateScale).toBe(2);
    expect(status.snapshot(Date.now()).warnings).toEqual([
      expect.stringMatching(/^steady: journeys\.fly skipped: not a journey/),
    ]);
    watcher.stop();
  });
});

describe('the control the shop keeps (--control <base>/api/traffic/control)', () => {
  it('tells a URL from a file', () => {
    expect(isControlUrl('http://localhost:3000/api/traffic/control')).toBe(true);
    expect(isControlUrl('HTTPS://shop.example/api/traffic/control')).toBe(true);
    expect(isControlUrl('control.json')).toBe(false);
    expect(isControlUrl('/tmp/http-control.json')).toBe(false);
  });

  it("reads the route's control as a control file's text, {} while none is set", async () => {
    const answers: unknown[] = [
      { control: null, updatedAt: null, updatedBy: null },
      { control: { rateScale: 2, paused: true }, updatedAt: 1, updatedBy: 'presenter' },
    ];
    const server = http.createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(request.url === '/api/traffic/control' ? answers.shift() : {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const url = `http://127.0.0.1:${port}/api/traffic/control`;
      expect(await readControlUrl(url)).toBe('{}');
      expect(JSON.parse(await readControlUrl(url))).toEqual({ rateScale: 2, paused: true });
    } finally {
      server.close();
    }
  });
});
