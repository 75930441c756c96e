import type { Cart, CartItemInput } from '@showroom/contracts/cart';
import type { PlaceOrderBody } from '@showroom/contracts/checkout';
import { PLACE_ORDER_PATH } from '@showroom/contracts/checkout-constants';
import type { MonitoringStats, SessionSummary } from '@showroom/contracts/monitoring';
import type { Order } from '@showroom/contracts/orders';
import type { PaymentMethod, SaveCardBody } from '@showroom/contracts/payments';
import type { SessionView } from '@showroom/contracts/session';
import type { ApiClient } from './api-client';

export interface PlaceOrderOptions {
  /** Same key for a retry of the same attempt: the api answers the first result. */
  idempotencyKey: string;
  /** Buy-now demo mode with `shouldError`: the api fails the attempt with a 500. */
  demoError?: 'buy-now';
}

const withCountry = (path: string, country?: string) =>
  country ? `${path}?country=${encodeURIComponent(country)}` : path;
const segment = encodeURIComponent;

/**
 * The shop api's routes as the browser calls them, typed from the contract package. Knows
 * nothing about sessions or React: see shop-session.ts.
 */
export function createShopApi({ request }: ApiClient) {
  return {
    getSession: () => request<SessionView>('GET', '/session'),
    bindShopper: (shopperId: string) =>
      request<SessionView>('PUT', '/session/shopper', { body: { shopperId } }),

    getCart: (country?: string) => request<Cart>('GET', withCountry('/cart', country)),
    addItem: (item: CartItemInput, country?: string) =>
      request<Cart>('POST', withCountry('/cart/items', country), { body: item }),
    setQuantity: (lineId: string, quantity: number, country?: string) =>
      request<Cart>('PATCH', withCountry(`/cart/items/${segment(lineId)}`, country), {
        body: { quantity },
      }),
    removeItem: (lineId: string, country?: string) =>
      request<Cart>('DELETE', withCountry(`/cart/items/${segment(lineId)}`, country)),
    buyNow: (item: CartItemInput) => request<Cart>('POST', '/cart/buy-now', { body: item }),

    /** The checkout shows every failure of its own (field, step, message): not reported. */
    placeOrder: (body: PlaceOrderBody, options: PlaceOrderOptions) =>
      request<Order>('POST', PLACE_ORDER_PATH, {
        body,
        report: false,
        headers: {
          'idempotency-key': options.idempotencyKey,
          ...(options.demoError ? { 'x-demo-error': options.demoError } : {}),
        },
      }),
    listOrders: () => request<{ orders: Order[] }>('GET', '/orders'),
    getOrder: (orderId: string) => request<Order>('GET', `/orders/${segment(orderId)}`),

    listPaymentMethods: () =>
      request<{ paymentMethods: PaymentMethod[] }>('GET', '/payment-methods'),
    /** The card form shows the gateway's answer itself: not reported. */
    savePaymentMethod: (card: SaveCardBody) =>
      request<PaymentMethod>('POST', '/payment-methods', { body: card, report: false }),
    deletePaymentMethod: (id: string) => request<void>('DELETE', `/payment-methods/${segment(id)}`),

    monitoringStats: () => request<MonitoringStats>('GET', '/monitoring/stats', { report: false }),
    monitoringSessions: (limit: number) =>
      request<{ sessions: SessionSummary[] }>('GET', `/monitoring/sessions?limit=${limit}`, {
        report: false,
      }),
  };
}

export type ShopApi = ReturnType<typeof createShopApi>;
