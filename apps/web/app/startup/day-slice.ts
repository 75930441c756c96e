import { DAY_SLICE_COUNT } from './storage-keys';

/**
 * a shopper list cut into seven equal slices, one per UTC day of the week (Sunday = 0).
 * Each slice holds `floor(length / 7)` entries, so up to six entries at the end of a list whose
 * length is not a multiple of seven are never chosen; a list shorter than seven is used whole
 * rather than giving empty slices. The build writes each day's slice of each list as a
 * chunk of its own (build-plugins/shopper-day-slices.ts), so a browser loads one seventh of a list.
 */
export function sliceOfDay<T>(list: readonly T[], utcDay: number): readonly T[] {
  if (!Number.isInteger(utcDay) || utcDay < 0 || utcDay >= DAY_SLICE_COUNT) {
    throw new RangeError(`A UTC day of the week is 0–${DAY_SLICE_COUNT - 1}, not ${utcDay}`);
  }
  const size = Math.floor(list.length / DAY_SLICE_COUNT);
  if (size === 0) return list;
  const start = utcDay * size;
  return list.slice(start, start + size);
}
