import type { ShopperListKind } from '@showroom/contracts/shopper';
import { DAY_SLICE_COUNT } from './storage-keys';

/**
 * how many entries each day's slice of a list of `listLength` holds: `floor(length / 7)`,
 * so up to six entries at the end of a list whose length is not a multiple of seven are never
 * chosen; a list shorter than seven is used whole rather than giving empty slices.
 */
export function daySliceSize(listLength: number): number {
  return Math.floor(listLength / DAY_SLICE_COUNT) || listLength;
}

/**
 * a shopper list cut into seven equal slices, one per UTC day of the week (Sunday = 0),
 * of `daySliceSize` entries each.
 */
export function sliceOfDay<T>(list: readonly T[], utcDay: number): readonly T[] {
  if (!Number.isInteger(utcDay) || utcDay < 0 || utcDay >= DAY_SLICE_COUNT) {
    throw new RangeError(`A UTC day of the week is 0–${DAY_SLICE_COUNT - 1}, not ${utcDay}`);
  }
  const size = daySliceSize(list.length);
  if (size === list.length) return list;
  const start = utcDay * size;
  return list.slice(start, start + size);
}

/**
 * Where the web server answers entry `index` of the `utcDay` slice of a list as JSON
 * (routes/sample-shopper.ts): a browser that must fill its identity fetches the one record it
 * drew, not the list.
 */
export function sampleShopperPath(kind: ShopperListKind, utcDay: number, index: number): string {
  return `/shoppers/${kind}/${utcDay}/${index}`;
}
