import { describe, expect, it } from 'vitest';
import { readTrafficProfile } from '@showroom/contracts/traffic';
import { curveAt, rateAt, spikeAt } from './rate.js';
import { Scheduler } from './scheduler.js';

const at = (time: string) => new Date(`2026-01-10T${time}:00Z`);

describe('the rate curve', () => {
  it('is flat with one hour given, linear between hours, and wraps around midnight', () => {
    expect(curveAt({ 5: 7 }, 0)).toBe(7);
    expect(curveAt({ 8: 4, 12: 8 }, 10 * 60)).toBe(6);
    expect(curveAt({ 8: 4, 12: 8 }, 12 * 60)).toBe(8);
    // 22:00 → 2, 02:00 → 6: midnight is half way.
    expect(curveAt({ 2: 6, 22: 2 }, 0)).toBe(4);
    expect(curveAt({ 2: 6, 22: 2 }, 23 * 60)).toBe(3);
  });

  it('multiplies by the spikes running, and only while they run', () => {
    const spikes = [{ at: '12:00', minutes: 45, multiplier: 4 }];
    expect(spikeAt(spikes, 11 * 60 + 59)).toBe(1);
    expect(spikeAt(spikes, 12 * 60)).toBe(4);
    expect(spikeAt(spikes, 12 * 60 + 44)).toBe(4);
    expect(spikeAt(spikes, 12 * 60 + 45)).toBe(1);
    expect(spikeAt([{ at: '23:30', minutes: 60, multiplier: 2 }], 10)).toBe(2);
  });

  it('answers the rate at a moment: curve × spikes × scale, 0 while paused, in the profile’s day', () => {
    const { profile } = readTrafficProfile({
      rate: { 0: 10 },
      spikes: [{ at: '12:00', minutes: 30, multiplier: 3 }],
      rateScale: 0.5,
    });
    expect(rateAt(profile, at('09:00'))).toBe(5);
    expect(rateAt(profile, at('12:10'))).toBe(15);
    expect(rateAt({ ...profile, paused: true }, at('12:10'))).toBe(0);
    // Two hours ahead of UTC: 10:10 UTC is 12:10 in the profile's day.
    expect(rateAt({ ...profile, timezoneOffsetMinutes: 120 }, at('10:10'))).toBe(15);
  });
});

describe('the scheduler', () => {
  it('starts sessions at the rate, never more than the concurrency at once', () => {
    const { profile } = readTrafficProfile({ rate: { 0: 60 }, concurrency: 50 });
    const scheduler = new Scheduler(profile);
    let started = 0;
    for (let ms = 0; ms <= 10_000; ms += 250) started += scheduler.due(ms, 0);
    // One at once, then one a second.
    expect(started).toBe(11);
    const full = new Scheduler({ ...profile, rate: { 0: 6000 }, concurrency: 2 });
    expect(full.due(0, 0)).toBe(1);
    expect(full.due(1000, 1)).toBe(1);
    expect(full.due(2000, 2)).toBe(0);
  });

  it('starts nothing while paused and stores up no burst for afterwards', () => {
    const { profile } = readTrafficProfile({ rate: { 0: 60 }, concurrency: 50, paused: true });
    const scheduler = new Scheduler(profile);
    let started = 0;
    for (let ms = 0; ms <= 60_000; ms += 1000) started += scheduler.due(ms, 0);
    expect(started).toBe(0);
    scheduler.setProfile({ ...profile, paused: false });
    expect(scheduler.due(61_000, 0)).toBe(1);
    expect(scheduler.due(62_000, 0)).toBe(1);
  });
});
