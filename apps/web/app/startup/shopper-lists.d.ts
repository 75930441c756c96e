// The shopper lists' day slices as the build writes them (build-plugins/shopper-day-slices.ts,
//
declare module 'virtual:shopper-day-slices' {
  import type { SampleShopper, ShopperListKind } from '@showroom/contracts/shopper';

  /** The slice of `kind`'s list for a UTC day of the week (0 = Sunday), a chunk of its own. */
  export function loadDaySlice(
    kind: ShopperListKind,
    utcDay: number,
  ): Promise<readonly SampleShopper[]>;
}
