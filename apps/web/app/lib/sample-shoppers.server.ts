import type { SampleShopper, ShopperListKind } from '@showroom/contracts/shopper';
import lists from 'virtual:shopper-lists';
import { daySliceSize, sliceOfDay } from '../startup/day-slice';
import { DAY_SLICE_COUNT, SHOPPER_LIST_KINDS } from '../startup/storage-keys';

export type SampleShopperLookup =
  { shopper: SampleShopper } | { field: 'kind' | 'day' | 'index'; message: string };

/** A whole number written in decimal digits within [0, below), or null. */
function position(text: string | undefined, below: number): number | null {
  if (text === undefined || !/^\d{1,6}$/.test(text)) return null;
  const value = Number(text);
  return value < below ? value : null;
}

/**
 * entry `index` of the `day` slice (0 = Sunday) of the `kind` list, as the route's
 * segments give them, or the segment at fault. `source` is the lists (the build's by default).
 */
export function lookUpSampleShopper(
  segments: { kind?: string; day?: string; index?: string },
  source: Readonly<Record<ShopperListKind, readonly SampleShopper[]>> = lists,
): SampleShopperLookup {
  const kind = SHOPPER_LIST_KINDS.find((known) => known === segments.kind);
  if (!kind)
    return { field: 'kind', message: `kind must be one of ${SHOPPER_LIST_KINDS.join(', ')}` };
  const day = position(segments.day, DAY_SLICE_COUNT);
  if (day === null)
    return { field: 'day', message: `day must be 0–${DAY_SLICE_COUNT - 1} (0 is Sunday, UTC)` };
  const list = source[kind];
  const size = daySliceSize(list.length);
  const index = position(segments.index, size);
  const shopper = index === null ? undefined : sliceOfDay(list, day)[index];
  if (!shopper) {
    return {
      field: 'index',
      message: `index must be 0–${size - 1}: a day's slice of the ${kind} list holds ${size}`,
    };
  }
  return { shopper };
}
