import { describe, expect, it } from 'vitest';
import {
  ApiError,
  createApiClient,
  onApiFailure,
  RETRY_AFTER_MAX_MS,
  RETRY_STATUSES,
} from './api-client';
import { createShopApi } from './shop-api';

interface Seen {
  url: string;
  init: RequestInit;
}

/** A fetch that answers each call with the next answer of the list (the last one repeats). */
function scriptedFetch(...answers: (() => Response | Promise<Response>)[]) {
  const seen: Seen[] = [];
  const fetchImpl = ((url: string, init: RequestInit) => {
    const answer = answers[Math.min(seen.length, answers.length - 1)]!;
    seen.push({ url, init });
    return Promise.resolve().then(answer);
  }) as unknown as typeof fetch;
  return { seen, fetchImpl };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
const apiError = (status: number, code: string, field?: string) =>
  json(status, { error: { code, message: `${code} happened`, ...(field ? { field } : {}) } });

/** A fetch that never answers: it fails only when its signal aborts, with the signal's reason. */
const hangingFetch = (onCall: () => void = () => {}) =>
  ((_url: string, init: RequestInit) => {
    onCall();
    return new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
    });
  }) as unknown as typeof fetch;

const noWait = () => Promise.resolve();
const clientWith = (fetchImpl: typeof fetch, baseUrl = 'http://shop.test/api/') =>
  createApiClient({ baseUrl, fetch: fetchImpl, sleep: noWait });

describe('the browser api client', () => {
  it('sends JSON with the session cookie to the base address', async () => {
    const { seen, fetchImpl } = scriptedFetch(() => json(200, { lines: [], itemCount: 0 }));
    const api = createShopApi(clientWith(fetchImpl));
    await api.addItem({ productId: 4, edition: 'special', quantity: 2 }, 'GB');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('http://shop.test/api/cart/items?country=GB');
    expect(seen[0]?.init).toMatchObject({
      method: 'POST',
      credentials: 'include',
      body: JSON.stringify({ productId: 4, edition: 'special', quantity: 2 }),
    });
    expect(seen[0]?.init.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(seen[0]?.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('sends the Idempotency-Key and the buy-now demo error header on an order', async () => {
    const { seen, fetchImpl } = scriptedFetch(() => json(201, { id: 'ord_1' }));
    await createShopApi(clientWith(fetchImpl)).placeOrder(
      { shipping: {} as never, payment: { type: 'saved', paymentMethodId: 'pm_1' } },
      { idempotencyKey: 'key-1', demoError: 'buy-now' },
    );
    expect(seen[0]?.url).toBe('http://shop.test/api/checkout/orders');
    expect(seen[0]?.init.headers).toMatchObject({
      'idempotency-key': 'key-1',
      'x-demo-error': 'buy-now',
    });
  });

  it("throws the api's contract code, message and field", async () => {
    const { fetchImpl } = scriptedFetch(() => apiError(409, 'OUT_OF_STOCK', 'quantity'));
    const error = await createShopApi(clientWith(fetchImpl))
      .addItem({ productId: 1, edition: 'standard', quantity: 5 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'OUT_OF_STOCK',
      message: 'OUT_OF_STOCK happened',
      field: 'quantity',
    });
  });

  it('reads a body that is not the error envelope, an unknown code, and an unreachable api', async () => {
    const html = scriptedFetch(() => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    await expect(clientWith(html.fetchImpl).request('POST', '/x')).rejects.toMatchObject({
      status: 502,
      code: 'INTERNAL',
    });
    const odd = scriptedFetch(() => apiError(418, 'TEAPOT'));
    await expect(clientWith(odd.fetchImpl).request('POST', '/x')).rejects.toMatchObject({
      status: 418,
      code: 'BAD_RESPONSE',
    });
    const down = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    await expect(clientWith(down).request('POST', '/session')).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
    });
  });

  it('answers nothing for a 204', async () => {
    const { seen, fetchImpl } = scriptedFetch(() => new Response(null, { status: 204 }));
    await expect(
      createShopApi(clientWith(fetchImpl)).deletePaymentMethod('pm_1'),
    ).resolves.toBeUndefined();
    expect(seen[0]?.init.method).toBe('DELETE');
  });

  it.each([
    ['', {}],
    [', with a signal of its own too', { signal: new AbortController().signal }],
  ])('gives up on an attempt after its timeout%s', async (_case, options) => {
    const client = createApiClient({
      baseUrl: 'http://x',
      fetch: hangingFetch(),
      timeoutMs: 20,
      sleep: noWait,
    });
    await expect(client.request('POST', '/slow', options)).rejects.toMatchObject({
      status: 0,
      code: 'TIMEOUT',
    });
  });
});

describe("the caller's cancel", () => {
  it('fails an aborted GET with the AbortError: no retry, no report', async () => {
    const reported: string[] = [];
    const stop = onApiFailure((error) => reported.push(error.code));
    let calls = 0;
    const hang = hangingFetch(() => (calls += 1));
    try {
      const controller = new AbortController();
      const pending = clientWith(hang).request('GET', '/search/suggestions?q=so', {
        signal: controller.signal,
      });
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(calls).toBe(1);
      expect(reported).toEqual([]);
    } finally {
      stop();
    }
  });
});

describe('the retry policy (R-7.7)', () => {
  it.each([...RETRY_STATUSES])('retries a GET once on %i', async (status) => {
    const { seen, fetchImpl } = scriptedFetch(
      () => apiError(status, 'INTERNAL'),
      () => json(200, { ok: true }),
    );
    await expect(clientWith(fetchImpl).request('GET', '/cart')).resolves.toEqual({ ok: true });
    expect(seen).toHaveLength(2);
  });

  it('retries a GET only once', async () => {
    const { seen, fetchImpl } = scriptedFetch(() => apiError(503, 'INTERNAL'));
    await expect(clientWith(fetchImpl).request('GET', '/cart')).rejects.toMatchObject({
      status: 503,
    });
    expect(seen).toHaveLength(2);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('never retries a %s', async (method) => {
    const { seen, fetchImpl } = scriptedFetch(
      () => apiError(503, 'INTERNAL'),
      () => json(200, { ok: true }),
    );
    await expect(clientWith(fetchImpl).request(method, '/cart/items')).rejects.toMatchObject({
      status: 503,
    });
    expect(seen).toHaveLength(1);
  });

  it('does not retry statuses outside the list', async () => {
    const { seen, fetchImpl } = scriptedFetch(
      () => apiError(400, 'VALIDATION_ERROR', 'country'),
      () => json(200, {}),
    );
    await expect(clientWith(fetchImpl).request('GET', '/cart')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(seen).toHaveLength(1);
  });

  it('waits as Retry-After asks, up to a cap', async () => {
    const waits: number[] = [];
    const { fetchImpl } = scriptedFetch(
      () => json(429, { error: { code: 'RATE_LIMITED', message: 'busy' } }, { 'retry-after': '1' }),
      () => json(503, { error: { code: 'INTERNAL', message: 'down' } }, { 'retry-after': '60' }),
    );
    const client = createApiClient({
      baseUrl: 'http://x',
      fetch: fetchImpl,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    await client.request('GET', '/a').catch(() => {});
    await client.request('GET', '/b').catch(() => {});
    expect(waits).toEqual([1000, RETRY_AFTER_MAX_MS]);
  });
});

describe('failure reports', () => {
  it('reports unanswered calls and 5xx to the listeners, not 4xx or calls that opt out', async () => {
    const reported: string[] = [];
    const stop = onApiFailure((error, call) =>
      reported.push(`${call.method} ${call.path} ${error.code}`),
    );
    try {
      const failing = scriptedFetch(() => apiError(500, 'INTERNAL'));
      await clientWith(failing.fetchImpl)
        .request('POST', '/one')
        .catch(() => {});
      await clientWith(failing.fetchImpl)
        .request('POST', '/two', { report: false })
        .catch(() => {});
      const refused = scriptedFetch(() => apiError(409, 'OUT_OF_STOCK'));
      await clientWith(refused.fetchImpl)
        .request('POST', '/three')
        .catch(() => {});
      expect(reported).toEqual(['POST /one INTERNAL']);
    } finally {
      stop();
    }
  });
});
