import type { ShippingCountry } from '@showroom/contracts/shipping';
import { messageOf } from '../../lib/api-errors';
import { cartStore } from '../../lib/cart-store';
import { usePricedCart } from '../../lib/use-priced-cart';
import { useAccountQuery } from '../../lib/account-session';
import { useSavedCards } from '../profile/saved-cards';

/**
 * What the checkout shows: the cart priced for the chosen shipping country (the same choice
 * as on /cart), when offered the session's saved cards, and the profile the form starts from.
 * Loaded in the browser after start-up has bound the session to the shopper.
 */
export function useCheckoutData(offerSavedCards: boolean) {
  const { client, country, cart } = usePricedCart();
  const savedCards = useSavedCards(offerSavedCards);
  const profile = useAccountQuery('profile', (account) => account.getProfile());

  return {
    ready: client !== null,
    cart: cart.data,
    loadError: cart.status === 'failed' ? messageOf(cart.error) : null,
    country,
    setCountry: (next: ShippingCountry) => cartStore.setCountry(next),
    /**
     * null while loading; empty when none are saved or none are offered, or when the list
     * failed (the shopper can still pay with a card typed in now).
     */
    savedCards: !offerSavedCards || savedCards.status === 'failed' ? [] : savedCards.data,
    reload: cart.reload,
    /** Null while loading or when it failed: the form then starts from the persona alone. */
    profile: profile.data,
  };
}
