import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE, ShopApiError, createShopApi } from './shop-api';

interface Seen {
  url: string;
  init: RequestInit;
}

function fakeFetch(answer: () => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetchImpl = ((url: string, init: RequestInit) => {
    seen.push({ url, init });
    return Promise.resolve(answer());
  }) as unknown as typeof fetch;
  return { seen, fetchImpl };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the browser shop api client', () => {
  it('sends JSON with the session cookie to the backend address', async () => {
    const { seen, fetchImpl } = fakeFetch(() => json(200, { lines: [], itemCount: 0 }));
    const api = createShopApi('http://localhost:3001/', fetchImpl);
    await api.addItem({ productId: 4, edition: 'special', quantity: 2 }, 'GB');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('http://localhost:3001/cart/items?country=GB');
    expect(seen[0]?.init).toMatchObject({
      method: 'POST',
      credentials: 'include',
      body: JSON.stringify({ productId: 4, edition: 'special', quantity: 2 }),
    });
    expect(seen[0]?.init.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it('sends the Idempotency-Key and the buy-now demo error header on an order', async () => {
    const { seen, fetchImpl } = fakeFetch(() => json(201, { id: 'ord_1' }));
    const api = createShopApi('http://api.test', fetchImpl);
    await api.placeOrder(
      { shipping: {} as never, payment: { type: 'saved', paymentMethodId: 'pm_1' } },
      { idempotencyKey: 'key-1', demoError: 'buy-now' },
    );
    expect(seen[0]?.url).toBe('http://api.test/checkout/orders');
    expect(seen[0]?.init.headers).toMatchObject({
      'idempotency-key': 'key-1',
      'x-demo-error': 'buy-now',
    });
  });

  it("throws the api's error code, message and field", async () => {
    const { fetchImpl } = fakeFetch(() =>
      json(409, {
        error: { code: 'OUT_OF_STOCK', message: 'Only 2 of "Desk" left', field: 'quantity' },
      }),
    );
    const error = await createShopApi('http://api.test', fetchImpl)
      .addItem({ productId: 1, edition: 'standard', quantity: 5 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ShopApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'OUT_OF_STOCK',
      message: 'Only 2 of "Desk" left',
      field: 'quantity',
    });
  });

  it('reports a body that is not an api error, and an unreachable api', async () => {
    const html = fakeFetch(() => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    await expect(createShopApi('http://api.test', html.fetchImpl).getCart()).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
    });
    const down = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    await expect(createShopApi('http://api.test', down).getSession()).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      message: NETWORK_ERROR_MESSAGE,
    });
  });

  it('answers nothing for a 204', async () => {
    const { seen, fetchImpl } = fakeFetch(() => new Response(null, { status: 204 }));
    await expect(
      createShopApi('http://api.test', fetchImpl).deletePaymentMethod('pm_1'),
    ).resolves.toBeUndefined();
    expect(seen[0]?.init.method).toBe('DELETE');
  });
});
