import { useCartSnapshot } from './cart-store';
import { useShopClient } from './shop-session';
import { useShopQuery } from './use-shop-query';

/**
 * The session's cart priced by the api for the chosen shipping country (the cart store's
 * choice, shared by /cart and the checkout), through the one loading hook.
 */
export function usePricedCart() {
  const client = useShopClient();
  const { country } = useCartSnapshot();
  const cart = useShopQuery(`cart ${country}`, (shop) => shop.getCart(country));
  return { client, country, cart };
}
