import type { TrafficProfile } from '@showroom/contracts/traffic';
import { rateAt } from './rate.js';

/**
 * Decides when sessions start: the profile's rate accrues as credit over time; a session starts
 * for each whole credit while fewer than `concurrency` run. Credit never exceeds one batch of
 * `concurrency`, and a pause none, so neither a full pool nor a pause stores up a burst. Clock-free: the caller
 * passes the time.
 */
export class Scheduler {
  private credit = 1;
  private lastTick: number | undefined;

  constructor(private profile: TrafficProfile) {}

  setProfile(profile: TrafficProfile): void {
    this.profile = profile;
  }

  get current(): TrafficProfile {
    return this.profile;
  }

  /** Sessions per minute asked for now. */
  rate(now: number): number {
    return rateAt(this.profile, new Date(now));
  }

  /** How many sessions to start now, with `running` running. */
  due(now: number, running: number): number {
    const rate = this.rate(now);
    if (this.lastTick !== undefined) this.credit += (rate * (now - this.lastTick)) / 60_000;
    this.lastTick = now;
    // Paused (or a rate of 0): sessions start again at the rate, not all at once.
    if (rate === 0) this.credit = 0;
    this.credit = Math.min(this.credit, Math.max(1, this.profile.concurrency));
    let start = 0;
    while (this.credit >= 1 && running + start < this.profile.concurrency && rate > 0) {
      this.credit -= 1;
      start += 1;
    }
    return start;
  }
}
