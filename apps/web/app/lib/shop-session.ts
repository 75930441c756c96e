import { useEffect, useMemo } from 'react';
import type { StartupResult } from '../startup/orchestrator';
import { useShopStartup } from '../startup/startup-context';
import { cartStore, type CartStore } from './cart-store';
import { ApiError, createApiClient, type ApiClient } from './api-client';
import { rememberPersona } from '../startup/persona';
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
 * (docs/decisions/003) — then, when start-up has a sample shopper identity and no account is
 * signed in, the session is bound to it (`PUT /session/shopper`) so the server applies that
 * shopper's discount. A signed-in account is the persona itself: never bound to a sample
 * shopper (docs/decisions/008-accounts-and-persona.md).
 *
 * Every session answer (opening, sign-in, verification, sign-out, a refresh) is remembered as
 * the persona (`remember`: monitoring and flags follow it) and sets the navbar's cart count.
 */
export function createShopClient(
  api: ShopApi,
  shopperId: string | null,
  store: CartStore,
  warn: (message: string, detail: unknown) => void = () => {},
  remember: (view: SessionView) => void = () => {},
) {
  let session: Promise<SessionView> | null = null;

  /** A session answer made this page's session: bound when it should be, then remembered. */
  async function settle(answer: SessionView): Promise<SessionView> {
    let view = answer;
    if (view.account === null && shopperId !== null && view.shopper?.id !== shopperId) {
      try {
        view = await api.bindShopper(shopperId);
      } catch (error) {
        // An identity the api does not know (an edited local storage) shops anonymously.
        if (!(error instanceof ApiError && error.code === 'SHOPPER_NOT_FOUND')) throw error;
        warn('The shop does not know this sample shopper; shopping without one:', error.message);
      }
    }
    remember(view);
    store.setItemCount(view.cart.itemCount);
    return view;
  }

  /** Caches a session in the making; a failed attempt is retried by the next call. */
  function keep(pending: Promise<SessionView>): Promise<SessionView> {
    const kept = pending.catch((error: unknown) => {
      if (session === kept) session = null;
      throw error;
    });
    session = kept;
    return kept;
  }

  /** The session, opened once per page. */
  function ready(): Promise<SessionView> {
    return session ?? keep(api.getSession().then(settle));
  }

  /** A call answered with another session (sign-in, verification, sign-out): this page's now. */
  const adopt = (answer: SessionView): Promise<SessionView> => keep(settle(answer));

  /**
   * Reads `GET /session` again: after a change of the persona (profile, e-mail, loyalty, an
   * order's points), so monitoring, flags and later calls see the new one.
   */
  function refreshSession(): Promise<SessionView> {
    session = null;
    return ready();
  }

  const track = async (pending: Promise<Cart>): Promise<Cart> => {
    const cart = await pending;
    store.setItemCount(cart.itemCount);
    return cart;
  };

  return {
    ready,
    refreshSession,
    /** Makes the session a call answered with (sign-in, verification, sign-out) this page's. */
    adoptSession: adopt,
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
      // A member's order earns points and may move them up a tier.
      refreshSession().catch(() => {});
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
const apiClients = new WeakMap<ShopClient, ApiClient>();

/** The api client a shop client calls through: account-session.ts makes its calls with it. */
export function apiClientOf(client: ShopClient): ApiClient {
  const found = apiClients.get(client);
  if (!found) throw new Error('This shop client was not made by shopClientFor');
  return found;
}

/** One client per page load, backend address and shopper (start-up's result is stable). */
export function shopClientFor(startup: StartupResult): ShopClient {
  const shopperId = startup.identity?.id ?? null;
  const key = `${startup.backendUrl} ${shopperId ?? ''}`;
  if (current?.key !== key) {
    const apiClient = createApiClient({ baseUrl: startup.backendUrl });
    const client = createShopClient(
      createShopApi(apiClient),
      shopperId,
      cartStore,
      (message, detail) => console.warn(message, detail),
      (view) => rememberPersona(view),
    );
    apiClients.set(client, apiClient);
    current = { key, client };
  }
  return current.client;
}

/**
 * This page's shop client once start-up has run (null during server rendering, hydration and
 * start-up). Opens the session as soon as it exists, so the navbar count appears on every page.
 */
export function useShopClient(): ShopClient | null {
  // Not waiting for the flag provider: the shop works on defaults while flags load.
  const startup = useShopStartup();
  const client = useMemo(() => (startup ? shopClientFor(startup) : null), [startup]);
  useEffect(() => {
    // A failure here shows where the shopper acts (add to cart, the cart page).
    client?.ready().catch(() => {});
  }, [client]);
  return client;
}
