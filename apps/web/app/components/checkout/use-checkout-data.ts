import { useEffect, useState } from 'react';
import { cartStore } from '../../lib/cart-store';
import type { PaymentMethod } from '../../lib/shop-types';
import { usePricedCart } from '../../lib/use-priced-cart';

/**
 * What the checkout shows: the cart priced for the chosen shipping country (the same choice
 * as on /cart) and, when offered, the session's saved cards. Loaded in the browser after
 * start-up has bound the session to the shopper.
 */
export function useCheckoutData(offerSavedCards: boolean) {
  const { client, country, cart, loadError, reload } = usePricedCart();
  const [savedCards, setSavedCards] = useState<PaymentMethod[] | null>(null);

  useEffect(() => {
    if (!client || !offerSavedCards) return;
    let active = true;
    client.listPaymentMethods().then(
      (methods) => {
        if (active) setSavedCards(methods);
      },
      // Without the list the shopper can still pay with a card typed in now.
      () => {
        if (active) setSavedCards([]);
      },
    );
    return () => {
      active = false;
    };
  }, [client, offerSavedCards]);

  return {
    ready: client !== null,
    cart,
    loadError,
    country,
    setCountry: (next: string) => cartStore.setCountry(next),
    /** null while loading; empty when none are saved or none are offered. */
    savedCards: offerSavedCards ? savedCards : [],
    reload,
  };
}
