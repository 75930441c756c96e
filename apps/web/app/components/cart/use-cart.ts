import type { ShippingCountry } from '@showroom/contracts/shipping';
import { useCallback, useState } from 'react';
import { cartStore } from '../../lib/cart-store';
import type { Cart } from '@showroom/contracts/cart';
import { messageOf } from '../../lib/api-errors';
import { usePricedCart } from '../../lib/use-priced-cart';

export interface CartPageState {
  cart: Cart | null;
  /** Loading the cart failed: what to tell the shopper. */
  loadError: string | null;
  /** A change is on its way: the controls wait for the api's answer. */
  busy: boolean;
  /** Errors of a change, by cart line id (the api's OUT_OF_STOCK message, for one). */
  lineErrors: Partial<Record<string, string>>;
  country: ShippingCountry;
  setCountry(country: ShippingCountry): void;
  setQuantity(lineId: string, quantity: number): void;
  remove(lineId: string): void;
  reload(): void;
}

/**
 * The cart page's data: the session's cart priced by the api for the chosen shipping country.
 * Loaded in the browser once start-up has bound the session to the shopper, so the discount
 * and the threshold are the shopper's.
 */
export function useCart(): CartPageState {
  const { client, country, cart: query } = usePricedCart();
  const setCart = query.setData;
  const [busy, setBusy] = useState(false);
  const [lineErrors, setLineErrors] = useState<Partial<Record<string, string>>>({});

  const change = useCallback(
    (lineId: string, send: () => Promise<Cart>) => {
      setBusy(true);
      send()
        .then(
          (answer) => {
            setCart(answer);
            setLineErrors({});
          },
          (error: unknown) => setLineErrors({ [lineId]: messageOf(error) }),
        )
        .finally(() => setBusy(false));
    },
    [setCart],
  );

  return {
    cart: query.data,
    loadError: query.status === 'failed' ? messageOf(query.error) : null,
    busy,
    lineErrors,
    country,
    setCountry: (next) => cartStore.setCountry(next),
    setQuantity: (lineId, quantity) => {
      if (client) change(lineId, () => client.setQuantity(lineId, quantity, country));
    },
    remove: (lineId) => {
      if (client) change(lineId, () => client.removeItem(lineId, country));
    },
    reload: query.reload,
  };
}
