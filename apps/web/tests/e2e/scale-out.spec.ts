import { request as requests, type APIRequestContext, type APIResponse } from '@playwright/test';
import { expect, test } from './fixtures';
import { nginxMissing, startTopology, type Topology } from './scale-out-topology';
import { ADDRESS, CARDS } from './shop-helpers';
import { shopJourney } from './shop-journey';

// The scale-out requirement (README "Scaling out", docs/architecture.md "Scaling"): nothing
// shared lives in a replica's memory. Two web and two api replicas behind nginx over one
// PostgreSQL database; a shopper's requests alternate between the replicas.

const BASE = Number(process.env.E2E_API_PORT ?? 3101);
const PORTS = {
  web: BASE + 61,
  api: BASE + 62,
  apis: [BASE + 63, BASE + 64] as [number, number],
  webs: [BASE + 65, BASE + 66] as [number, number],
};
/** Bought by the concurrent checkouts (the journeys buy lighting and chairs). */
const CONTESTED = { id: 3, edition: 'standard' } as const;
const ORDER = {
  shipping: { ...ADDRESS, country: 'US' },
  payment: {
    type: 'card',
    card: {
      number: CARDS.succeeds,
      cvc: '123',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 3,
    },
  },
};

test.describe.configure({ mode: 'serial' });

let topology: Topology;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const missing = nginxMissing();
  if (missing) throw new Error(missing);
  topology = await startTopology(PORTS);
});

test.afterAll(async () => {
  if (!topology) return;
  const perReplica = new Map<string, number>();
  for (const { port, upstream } of topology.passes()) {
    perReplica.set(`${port} ${upstream}`, (perReplica.get(`${port} ${upstream}`) ?? 0) + 1);
  }
  const counts = [...perReplica].map(([key, n]) => `${key}: ${n}`);
  console.info(`scale-out: requests per replica (nginx port, upstream): ${counts.join(', ')}`);
  await topology.stop();
});

/** A shopper of the topology: a cookie jar of its own, every call through nginx's web port. */
async function shopper(): Promise<APIRequestContext> {
  return requests.newContext({ baseURL: `${topology.webUrl}/api/` });
}

/** The replicas behind nginx's `port` that answered the requests from the `from`th on. */
function upstreamsSince(from: number, port: number): string[] {
  const upstreams = topology
    .passes()
    .slice(from)
    .filter((pass) => pass.port === port)
    .map((pass) => pass.upstream);
  return [...new Set(upstreams)].sort();
}

/** The addresses of replicas on `ports`, as nginx logs them. */
const addresses = (ports: number[]) => ports.map((port) => `127.0.0.1:${port}`).sort();

test('a shopper journey whose requests alternate between replicas keeps its session, cart, account and order', async () => {
  const from = topology.passes().length;
  const api = await shopper();
  try {
    const ok = async (call: Promise<APIResponse>, status = 200) => {
      const response = await call;
      expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(status);
      return response.json();
    };
    const anonymous = await ok(api.get('session'));
    expect(anonymous.account).toBeNull();
    await ok(api.post('cart/items', { data: { productId: 13, edition: 'standard', quantity: 2 } }));
    expect((await ok(api.get('cart'))).itemCount).toBe(2);

    const email = `scale-${Date.now()}@example.com`;
    await ok(
      api.post('accounts', {
        data: { name: 'Ada Lovelace', email, password: 'correct horse battery staple' },
      }),
      202,
    );
    const outbox = await ok(api.get('outbox'));
    const code = /\b(\d{6})\b/.exec(outbox.messages[0]?.text ?? '')?.[1];
    expect(code, JSON.stringify(outbox.messages[0])).toBeDefined();
    const signedIn = await ok(api.post('accounts/verification', { data: { code } }));
    expect(signedIn.account.email).toBe(email);
    expect(signedIn.cart.itemCount).toBe(2);

    const order = await ok(
      api.post('checkout/orders', {
        data: ORDER,
        headers: { 'idempotency-key': `scale-journey-${Date.now()}` },
      }),
      201,
    );
    // Read back, each call possibly on the other replica.
    for (let i = 0; i < 4; i += 1) {
      expect((await ok(api.get(`orders/${order.id}`))).id).toBe(order.id);
      const now = await ok(api.get('session'));
      expect(now.account?.email).toBe(email);
      expect(now.cart.itemCount).toBe(0);
    }
  } finally {
    await api.dispose();
  }
  // nginx passed the journey's calls to both api replicas.
  expect(upstreamsSince(from, PORTS.api)).toEqual(addresses(PORTS.apis));
});

test('a flag change through one replica is served by the other within a second', async ({
  request,
}) => {
  const flag = 'show_loyalty_program';
  const read = async (replica: 0 | 1) => {
    const response = await request.get(`${topology.apiReplica(replica)}/flags/${flag}`);
    expect(response.status()).toBe(200);
    return ((await response.json()) as { enabled: boolean }).enabled;
  };
  const before = await read(1);
  const changed = await request.patch(`${topology.apiReplica(0)}/flags/${flag}`, {
    data: { enabled: !before },
    headers: { 'x-operator': 'scale-out test' },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  const changedAt = Date.now();
  await expect.poll(() => read(1), { timeout: 1_000, intervals: [50] }).toBe(!before);
  console.info(
    `scale-out: flag change served by the other replica after ${Date.now() - changedAt} ms`,
  );
  await request.patch(`${topology.apiReplica(0)}/flags/${flag}`, {
    data: { enabled: before },
    headers: { 'x-operator': 'scale-out test' },
  });
});

test('sign-in attempts count against one limit on every replica', async ({ request }) => {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 11; attempt += 1) {
    // Alternately on each replica's own address: each sees five or six of the eleven.
    const response = await request.post(
      `${topology.apiReplica((attempt % 2) as 0 | 1)}/session/sign-in`,
      {
        data: { email: 'nobody@example.com', password: 'wrong password' },
      },
    );
    statuses.push(response.status());
  }
  expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
});

test("the traffic generators' control set through one replica is read through the other", async ({
  request,
}) => {
  const put = await request.put(`${topology.apiReplica(0)}/traffic/control`, {
    data: { rateScale: 4, paused: false },
  });
  expect(put.status(), await put.text()).toBe(200);
  const read = await request.get(`${topology.webUrl}/api/traffic/control`);
  expect((await read.json()).control).toEqual({ rateScale: 4, paused: false });
  await request.delete(`${topology.apiReplica(1)}/traffic/control`);
});

test('concurrent checkouts across replicas never oversell', async () => {
  const STOCK = 4;
  const SHOPPERS = 10;
  await topology.query('UPDATE products SET stock = $1 WHERE id = $2', [STOCK, CONTESTED.id]);
  const shoppers = await Promise.all(Array.from({ length: SHOPPERS }, () => shopper()));
  try {
    for (const api of shoppers) {
      const added = await api.post('cart/items', {
        data: { productId: CONTESTED.id, edition: CONTESTED.edition, quantity: 1 },
      });
      expect(added.status()).toBe(200);
    }
    const statuses = await Promise.all(
      shoppers.map(async (api, index) => {
        const response = await api.post('checkout/orders', {
          data: ORDER,
          headers: { 'idempotency-key': `scale-contested-${index}-${Date.now()}` },
        });
        return response.status();
      }),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(STOCK);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(
      true,
    );
    const [row] = await topology.query<{ stock: number; sold: string }>(
      `SELECT p.stock, (SELECT COALESCE(SUM(quantity), 0) FROM order_lines
         WHERE product_id = p.id AND edition = 'standard') AS sold FROM products p WHERE p.id = $1`,
      [CONTESTED.id],
    );
    expect(row).toEqual({ stock: 0, sold: String(STOCK) });
  } finally {
    await Promise.all(shoppers.map((api) => api.dispose()));
  }
});

test('a browser journey through nginx alone: browse, cart, order, flags and monitoring', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const from = topology.passes().length;
  await shopJourney(page, request, topology.webUrl, topology.apiUrl);
  expect(upstreamsSince(from, PORTS.web)).toEqual(addresses(PORTS.webs));
});

test('killing one api replica in the middle of a checkout load loses no acknowledged order', async () => {
  test.setTimeout(120_000);
  await topology.query('UPDATE products SET stock = 1000 WHERE id = $1', [CONTESTED.id]);
  const acknowledged: string[] = [];
  let failed = 0;
  let stopping = false;
  const buyer = async (index: number) => {
    const api = await shopper();
    try {
      for (let n = 0; !stopping; n += 1) {
        const key = `scale-kill-${index}-${n}-${Date.now()}`;
        const added = await api.post('cart/items', {
          data: { productId: CONTESTED.id, edition: CONTESTED.edition, quantity: 1 },
        });
        // A cart call cut by the kill (nginx answers 502) is the shopper's to repeat.
        if (added.status() !== 200) continue;
        // A request cut by the kill is retried under its key, as the shop's client does.
        for (let attempt = 0; attempt < 3; attempt += 1) {
          const response = await api
            .post('checkout/orders', { data: ORDER, headers: { 'idempotency-key': key } })
            .catch(() => null);
          if (response?.status() === 201) {
            acknowledged.push(((await response.json()) as { id: string }).id);
            break;
          }
          if (attempt === 2) failed += 1;
        }
      }
    } finally {
      await api.dispose();
    }
  };
  const buyers = Promise.all([0, 1, 2, 3].map(buyer));
  await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
  await topology.killApi(1);
  const atKill = acknowledged.length;
  await expect
    .poll(() => acknowledged.length, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(atKill + 10);
  stopping = true;
  await buyers;

  const stored = await topology.query<{ id: string }>('SELECT id FROM orders WHERE id = ANY($1)', [
    acknowledged,
  ]);
  const lost = acknowledged.filter((id) => !stored.some((row) => row.id === id));
  console.info(
    `scale-out: ${acknowledged.length} orders acknowledged (${atKill} before the kill), ` +
      `${lost.length} lost, ${failed} failed`,
  );
  expect(lost).toEqual([]);
  expect(new Set(acknowledged).size).toBe(acknowledged.length);
  expect(failed).toBe(0);
});
