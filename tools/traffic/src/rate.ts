import type { TrafficProfile } from '@showroom/contracts/traffic';

const DAY_MINUTES = 24 * 60;

/** Minutes since midnight of the profile's day (UTC shifted by its offset). */
export function minuteOfDay(profile: Pick<TrafficProfile, 'timezoneOffsetMinutes'>, at: Date) {
  const utc = at.getUTCHours() * 60 + at.getUTCMinutes() + at.getUTCSeconds() / 60;
  return (((utc + profile.timezoneOffsetMinutes) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
}

/**
 * The curve's sessions per minute at a minute of the day: linear between the hours the profile
 * gives, around midnight too; one hour given is a flat rate.
 */
export function curveAt(rate: Record<number, number>, minute: number): number {
  const points = Object.entries(rate)
    .map(([hour, value]) => ({ minute: Number(hour) * 60, value }))
    .sort((a, b) => a.minute - b.minute);
  if (points.length === 0) return 0;
  if (points.length === 1) return points[0]!.value;
  let before = points.findLast((point) => point.minute <= minute);
  let after = points.find((point) => point.minute > minute);
  // Around midnight: the last point of the day before, the first of the day after.
  before ??= { ...points.at(-1)!, minute: points.at(-1)!.minute - DAY_MINUTES };
  after ??= { ...points[0]!, minute: points[0]!.minute + DAY_MINUTES };
  const share = (minute - before.minute) / (after.minute - before.minute);
  return before.value + (after.value - before.value) * share;
}

/** The multiplier of the spikes running at that minute (spikes multiply each other). */
export function spikeAt(spikes: TrafficProfile['spikes'], minute: number): number {
  let multiplier = 1;
  for (const spike of spikes) {
    const [hours, minutes] = spike.at.split(':').map(Number) as [number, number];
    const start = hours * 60 + minutes;
    const into = (((minute - start) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
    if (into < spike.minutes) multiplier *= spike.multiplier;
  }
  return multiplier;
}

/** Sessions per minute the profile asks for at that moment (0 while paused). */
export function rateAt(profile: TrafficProfile, at: Date): number {
  if (profile.paused) return 0;
  const minute = minuteOfDay(profile, at);
  return curveAt(profile.rate, minute) * spikeAt(profile.spikes, minute) * profile.rateScale;
}
