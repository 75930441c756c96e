import { DEFAULT_SHIPPING_COUNTRY, type ShippingCountry } from '@showroom/contracts/shipping';
import { useSyncExternalStore } from 'react';

/**
 * The few cart facts other parts of the page show (the navbar count) or carry from page to
 * page (the shipping country chosen on /cart). Browser-only state of this page load; the api
 * stays the source of truth and every cart answer refreshes it.
 */
export interface CartSnapshot {
  /** Units in the cart; null until the api has answered on this page. */
  itemCount: number | null;
  /** Shipping country chosen on /cart, used as the checkout's first choice. */
  country: ShippingCountry;
}

export function createCartStore() {
  let snapshot: CartSnapshot = { itemCount: null, country: DEFAULT_SHIPPING_COUNTRY };
  const listeners = new Set<() => void>();
  const update = (next: Partial<CartSnapshot>) => {
    const merged = { ...snapshot, ...next };
    if (merged.itemCount === snapshot.itemCount && merged.country === snapshot.country) return;
    snapshot = merged;
    for (const listener of listeners) listener();
  };
  return {
    getSnapshot: () => snapshot,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setItemCount: (itemCount: number) => update({ itemCount }),
    setCountry: (country: ShippingCountry) => update({ country }),
  };
}

export type CartStore = ReturnType<typeof createCartStore>;

/** This page's store. Only the browser writes to it; the server always renders "unknown". */
export const cartStore = createCartStore();

const SERVER_SNAPSHOT: CartSnapshot = { itemCount: null, country: DEFAULT_SHIPPING_COUNTRY };

export function useCartSnapshot(): CartSnapshot {
  return useSyncExternalStore(cartStore.subscribe, cartStore.getSnapshot, () => SERVER_SNAPSHOT);
}
