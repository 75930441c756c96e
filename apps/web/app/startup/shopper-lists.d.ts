// The committed sample shopper lists as the build hands them over (build-plugins/shopper-lists.ts).
declare module 'virtual:shopper-list-lengths' {
  import type { ShopperListKind } from '@showroom/contracts/shopper';

  /** How many shoppers each list holds. */
  const lengths: Readonly<Record<ShopperListKind, number>>;
  export default lengths;
}

declare module 'virtual:shopper-lists' {
  import type { SampleShopper, ShopperListKind } from '@showroom/contracts/shopper';

  /** The lists themselves: the server build only (app/lib/sample-shoppers.server.ts). */
  const lists: Readonly<Record<ShopperListKind, readonly SampleShopper[]>>;
  export default lists;
}
