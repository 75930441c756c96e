import { useEffect, useState } from 'react';
import { cartStore, useCartSnapshot } from '../../lib/cart-store';
import { useShopClient } from '../../lib/shop-session';
import type { Cart, PaymentMethod } from '../../lib/shop-types';

const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : 'Something went wrong; please try again.';

/**
 * What the checkout shows: the cart priced for the chosen shipping country (the same choice
 * as on /cart) and, when offered, the session's saved cards. Loaded in the browser after
 * start-up has bound the session to the shopper.
 */
export function useCheckoutData(offerSavedCards: boolean) {
  const client = useShopClient();
  const { country } = useCartSnapshot();
  const [cart, setCart] = useState<Cart | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [savedCards, setSavedCards] = useState<PaymentMethod[] | null>(null);
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
    reload: () => setRevision((value) => value + 1),
  };
}
