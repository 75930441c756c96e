import type {
  Cart,
  CardInput,
  CartItemInput,
  Order,
  PaymentMethod,
  PlaceOrderRequest,
  SessionView,
} from './shop-types';

/** The api's error body: `{"error":{"code","message","field"?}}` (docs/decisions/001). */
export interface ShopApiErrorBody {
  code: string;
  message: string;
  field?: string;
}

/**
 * A call to the shop api that did not succeed. `status` is the HTTP status (0 when the api
 * could not be reached); `code`, `message` and `field` are what the api said.
 */
export class ShopApiError extends Error {
  readonly code: string;
  readonly field: string | undefined;

  constructor(
    readonly status: number,
    body: ShopApiErrorBody,
  ) {
    super(body.message);
    this.name = 'ShopApiError';
    this.code = body.code;
    this.field = body.field;
  }
}

export const NETWORK_ERROR_MESSAGE =
  'The shop could not be reached. Check your connection and try again.';

export interface PlaceOrderOptions {
  /** Same key for a retry of the same attempt: the api answers the first result. */
  idempotencyKey: string;
  /** Buy-now demo mode with `shouldError`: the api fails the attempt with a 500. */
  demoError?: 'buy-now';
}

/** The backend address without a trailing slash, so paths join with one. */
function normaliseBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

function isErrorBody(value: unknown): value is { error: ShopApiErrorBody } {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as ShopApiErrorBody).message === 'string' &&
    typeof (error as ShopApiErrorBody).code === 'string'
  );
}

/**
 * The browser's client for the shop api at the deployment profile's backend address. Sends
 * the api's session cookie (`credentials: 'include'`) and JSON; every failure is a
 * {@link ShopApiError}. Knows nothing about sessions or React: see shop-session.ts.
 */
export function createShopApi(baseUrl: string, fetchImpl: typeof fetch = fetch) {
  const base = normaliseBaseUrl(baseUrl);

  async function call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        credentials: 'include',
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? null : JSON.stringify(body),
      });
    } catch {
      throw new ShopApiError(0, { code: 'NETWORK_ERROR', message: NETWORK_ERROR_MESSAGE });
    }
    if (response.status === 204) return undefined as T;
    const payload: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      throw new ShopApiError(
        response.status,
        isErrorBody(payload)
          ? payload.error
          : { code: 'HTTP_ERROR', message: `The shop answered ${response.status}` },
      );
    }
    return payload as T;
  }

  const withCountry = (path: string, country?: string) =>
    country ? `${path}?country=${encodeURIComponent(country)}` : path;

  return {
    getSession: () => call<SessionView>('GET', '/session'),
    bindShopper: (shopperId: string) => call<SessionView>('PUT', '/session/shopper', { shopperId }),

    getCart: (country?: string) => call<Cart>('GET', withCountry('/cart', country)),
    addItem: (item: CartItemInput, country?: string) =>
      call<Cart>('POST', withCountry('/cart/items', country), item),
    setQuantity: (lineId: string, quantity: number, country?: string) =>
      call<Cart>('PATCH', withCountry(`/cart/items/${encodeURIComponent(lineId)}`, country), {
        quantity,
      }),
    removeItem: (lineId: string, country?: string) =>
      call<Cart>('DELETE', withCountry(`/cart/items/${encodeURIComponent(lineId)}`, country)),
    buyNow: (item: CartItemInput) => call<Cart>('POST', '/cart/buy-now', item),

    placeOrder: (request: PlaceOrderRequest, options: PlaceOrderOptions) =>
      call<Order>('POST', '/checkout/orders', request, {
        'idempotency-key': options.idempotencyKey,
        ...(options.demoError ? { 'x-demo-error': options.demoError } : {}),
      }),
    listOrders: () => call<{ orders: Order[] }>('GET', '/orders'),
    getOrder: (orderId: string) => call<Order>('GET', `/orders/${encodeURIComponent(orderId)}`),

    listPaymentMethods: () => call<{ paymentMethods: PaymentMethod[] }>('GET', '/payment-methods'),
    savePaymentMethod: (card: CardInput) => call<PaymentMethod>('POST', '/payment-methods', card),
    deletePaymentMethod: (id: string) =>
      call<void>('DELETE', `/payment-methods/${encodeURIComponent(id)}`),
  };
}

export type ShopApi = ReturnType<typeof createShopApi>;
