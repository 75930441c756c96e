import { useEffect, useState } from 'react';
import { useCartSnapshot } from './cart-store';
import { useShopClient } from './shop-session';
import type { Cart } from './shop-types';

/** What to tell the shopper about a failed api call. */
export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : 'Something went wrong; please try again.';

/**
 * The session's cart priced by the api for the chosen shipping country (the cart store's
 * choice, shared by /cart and the checkout). Loaded in the browser once start-up has bound
 * the session to the shopper, again when the country changes or `reload()` is called.
 * A failed load keeps the cart last shown and sets `loadError`; answers for an older
 * country are dropped.
 */
export function usePricedCart() {
  const client = useShopClient();
  const { country } = useCartSnapshot();
  const [cart, setCart] = useState<Cart | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    if (!client) return;
    let active = true;
    client.getCart(country).then(
      (answer) => {
        if (!active) return;
        setCart(answer);
        setLoadError(null);
      },
      (error: unknown) => {
        if (active) setLoadError(messageOf(error));
      },
    );
    return () => {
      active = false;
    };
  }, [client, country, revision]);

  return {
    client,
    country,
    cart,
    setCart,
    loadError,
    reload: () => setRevision((value) => value + 1),
  };
}
