import { useEffect, useMemo } from 'react';
import type { StartupResult } from '../startup/orchestrator';
import { useStartup } from '../startup/startup-context';
import { cartStore, type CartStore } from './cart-store';
import { ApiError, createApiClient } from './api-client';
import { createShopApi, type PlaceOrderOptions, type ShopApi } from './shop-api';
import type { Cart, CartItemInput } from '@showroom/contracts/cart';
import type { PlaceOrderBody as PlaceOrderRequest } from '@showroom/contracts/checkout';
import type { SessionView } from '@showroom/contracts/session';

/**
 * The shop api as pages use it: every call waits for this page's session to be ready, and
 * every cart answer updates the cart store (navbar count).
 *
 * Ready means: `GET /session` answered first — the api creates the session and sets its
 * cookie on the first request, and parallel first requests could create two sessions
 * (docs/decisions/003) — then, when start-up has a sample shopper identity, the session is
 * bound to it (`PUT /session/shopper`) so the server applies that shopper's discount.
 */
export function createShopClient(
  api: ShopApi,
  shopperId: string | null,
  store: CartStore,
  warn: (message: string, detail: unknown) => void = () => {},
) {
  let session: Promise<SessionView> | null = null;

  async function openSession(): Promise<SessionView> {
    let view = await api.getSession();
    if (shopperId !== null && view.shopper?.id !== shopperId) {
      try {
        view = await api.bindShopper(shopperId);
      } catch (error) {
        // An identity the api does not know (an edited local storage) shops anonymously.
        if (!(error instanceof ApiError && error.code === 'SHOPPER_NOT_FOUND')) throw error;
        warn('The shop does not know this sample shopper; shopping without one:', error.message);
      }
    }
    store.setItemCount(view.cart.itemCount);
    return view;
  }

  /** The session, opened once per page; a failed attempt is retried by the next call. */
  function ready(): Promise<SessionView> {
    session ??= openSession().catch((error: unknown) => {
      session = null;
      throw error;
    });
    return session;
  }

  const track = async (pending: Promise<Cart>): Promise<Cart> => {
    const cart = await pending;
    store.setItemCount(cart.itemCount);
    return cart;
  };

  return {
    ready,
    /** The inspector's live counts: operator data, no session needed. */
    monitoringStats: () => api.monitoringStats(),
    monitoringSessions: (limit: number) => api.monitoringSessions(limit),
    async getCart(country?: string): Promise<Cart> {
      await ready();
      return track(api.getCart(country));
    },
    async addItem(item: CartItemInput, country?: string): Promise<Cart> {
      await ready();
      return track(api.addItem(item, country));
    },
    async setQuantity(lineId: string, quantity: number, country?: string): Promise<Cart> {
      await ready();
      return track(api.setQuantity(lineId, quantity, country));
    },
    async removeItem(lineId: string, country?: string): Promise<Cart> {
      await ready();
      return track(api.removeItem(lineId, country));
    },
    async buyNow(item: CartItemInput): Promise<Cart> {
      await ready();
      return track(api.buyNow(item));
    },
    async placeOrder(request: PlaceOrderRequest, options: PlaceOrderOptions) {
      await ready();
      const order = await api.placeOrder(request, options);
      store.setItemCount(0);
      return order;
    },
    async listOrders() {
      await ready();
      return (await api.listOrders()).orders;
    },
    async getOrder(orderId: string) {
      await ready();
      return api.getOrder(orderId);
    },
    async listPaymentMethods() {
      await ready();
      return (await api.listPaymentMethods()).paymentMethods;
    },
    async savePaymentMethod(card: Parameters<ShopApi['savePaymentMethod']>[0]) {
      await ready();
      return api.savePaymentMethod(card);
    },
    async deletePaymentMethod(id: string) {
      await ready();
      return api.deletePaymentMethod(id);
    },
  };
}

export type ShopClient = ReturnType<typeof createShopClient>;

let current: { key: string; client: ShopClient } | null = null;

/** One client per page load, backend address and shopper (start-up's result is stable). */
export function shopClientFor(startup: StartupResult): ShopClient {
  const shopperId = startup.identity?.id ?? null;
  const key = `${startup.backendUrl} ${shopperId ?? ''}`;
  if (current?.key !== key) {
    const api = createShopApi(createApiClient({ baseUrl: startup.backendUrl }));
    current = {
      key,
      client: createShopClient(api, shopperId, cartStore, (message, detail) =>
        console.warn(message, detail),
      ),
    };
  }
  return current.client;
}

/**
 * This page's shop client once start-up has run (null during server rendering, hydration and
 * start-up). Opens the session as soon as it exists, so the navbar count appears on every page.
 */
export function useShopClient(): ShopClient | null {
  const startup = useStartup();
  const client = useMemo(() => (startup ? shopClientFor(startup) : null), [startup]);
  useEffect(() => {
    // A failure here shows where the shopper acts (add to cart, the cart page).
    client?.ready().catch(() => {});
  }, [client]);
  return client;
}
