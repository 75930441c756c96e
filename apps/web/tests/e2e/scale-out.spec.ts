import { request as requests, type APIRequestContext, type APIResponse } from '@playwright/test';
import {
  AUTOPILOT_PROFILES,
  planAutopilot,
  type AutopilotState,
} from '@showroom/contracts/autopilot';
import type { GuardBody, GuardState } from '@showroom/contracts/guards';
import type { ChangeMarker, MarkerList } from '@showroom/contracts/markers';
import type { ScenarioList } from '@showroom/contracts/scenarios';
import { expect, test } from './fixtures';
import { nginxMissing, startTopology, type Topology } from './scale-out-topology';
import { ADDRESS, CARDS } from './shop-helpers';
import { shopJourney } from './shop-journey';
import { autopilotCandidates } from '@showroom/contracts/scenario-link';

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

// The autopilot and guarded rollouts act from every api replica's own ticker; only one replica
// may act on a schedule step or a guard step (docs/decisions/018-autopilot.md, 019-guarded-
// rollouts.md, docs/architecture.md "Scaling"). Both replicas run, behind nginx, on one database.
const OPERATOR = { 'x-operator': 'scale-out test' };

/** A GET through `url` answered 200, as JSON. */
async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/** Markers since `since` of `kind` (and the flag, when given) through nginx, oldest first. */
async function markersOf(
  request: APIRequestContext,
  kind: ChangeMarker['kind'],
  since: number,
  flag?: string,
): Promise<ChangeMarker[]> {
  const query = `since=${since}&limit=500${flag ? `&flag=${flag}` : ''}`;
  const { markers } = await getJson<MarkerList>(request, `${topology.apiUrl}/markers?${query}`);
  return markers.filter((marker) => marker.kind === kind).reverse();
}

/** The api replicas nginx passed requests under one of `prefixes` to, from the `from`th on. */
function upstreamsOf(from: number, prefixes: string[]): string[] {
  const passes = topology.passes().slice(from);
  const upstreams = passes
    .filter((pass) => pass.port === PORTS.api)
    .filter((pass) => prefixes.some((prefix) => pass.uri.startsWith(prefix)))
    .map((pass) => pass.upstream);
  return [...new Set(upstreams)].sort();
}

/**
 * What each api replica logged with message `msg` (app.ts logs what its tickers did), each
 * line's values picked by `pick`: [replica 1's, replica 2's].
 */
function loggedBy<T>(msg: string, pick: (line: Record<string, unknown>) => T[]): [T[], T[]] {
  const of = (index: 0 | 1) =>
    topology
      .apiLogLines(index)
      .filter((line) => line.msg === msg)
      .flatMap(pick);
  return [of(0), of(1)];
}

test('the autopilot run by both api replicas applies each step of its schedule once, in order', async ({
  request,
}) => {
  test.setTimeout(60_000);
  const SEED = 8;
  const from = topology.passes().length;
  const since = Date.now();
  const start = await request.post(`${topology.apiUrl}/autopilot/start`, {
    data: { profile: 'compressed', seed: SEED },
    headers: OPERATOR,
  });
  expect(start.status(), await start.text()).toBe(200);
  const started = (await start.json()) as AutopilotState;
  // Both replicas line up on step 0: the autopilot's row is locked while the step comes due, so
  // each replica's ticker waits on its read; released, both read the same next step at once and
  // both go to claim it — the conditional UPDATE (decision 018) lets one of them apply it.
  const lock = await topology.lockTable('autopilot');
  let waiting = 0;
  try {
    await expect
      .poll(
        async () => {
          waiting = await lock.waiting();
          return waiting >= 2 && Date.now() >= started.steps[0]!.dueAt! + 100;
        },
        { timeout: 10_000, intervals: [50] },
      )
      .toBe(true);
  } finally {
    await lock.release();
  }
  const available = autopilotCandidates(
    (await getJson<ScenarioList>(request, `${topology.apiUrl}/scenarios`)).scenarios,
  );
  const plan = planAutopilot(AUTOPILOT_PROFILES.compressed, SEED, available);
  expect(plan.length).toBeGreaterThan(1);
  // Each planned step carries the plan's step (and when it is due, whether it is applied).
  expect(started.steps).toMatchObject(plan);

  // Polled through nginx: every other read is the other replica's.
  await expect
    .poll(
      async () => (await getJson<AutopilotState>(request, `${topology.apiUrl}/autopilot`)).status,
      { timeout: 40_000, intervals: [250] },
    )
    .toBe('finished');

  const markers = await markersOf(request, 'autopilot', since);
  expect(markers.map((marker) => marker.action)).toEqual([
    'start',
    ...plan.map(() => 'step'),
    'finish',
  ]);
  const steps = markers.filter((marker) => marker.action === 'step');
  expect(steps.map((marker) => (marker.after as { step: number }).step)).toEqual(
    plan.map((step) => step.index),
  );
  for (const step of plan) {
    expect(steps[step.index]!.after, `step ${step.index}`).toMatchObject({
      step: step.index,
      turnOn: step.turnOn,
      turnOff: step.turnOff,
    });
  }
  // Each scenario start and stop happened once: no replica repeated one of the other's.
  const scenarios = (await markersOf(request, 'scenario', since)).filter(
    (marker) => marker.operator === 'autopilot',
  );
  const transitions = plan.reduce((n, step) => n + step.turnOn.length + step.turnOff.length, 0);
  expect(scenarios).toHaveLength(transitions);
  expect((await getJson<ScenarioList>(request, `${topology.apiUrl}/scenarios`)).active).toEqual([]);

  // Both replicas were up and answering the autopilot's routes, each with its own ticker; the
  // steps each one logged as applied by itself add up to the schedule, none twice.
  expect(upstreamsOf(from, ['/autopilot'])).toEqual(addresses(PORTS.apis));
  const appliedBy = loggedBy('autopilot applied steps', (line) => line.steps as number[]);
  expect([...appliedBy[0], ...appliedBy[1]].sort((a, b) => a - b)).toEqual(
    plan.map((step) => step.index),
  );
  console.info(
    `scale-out: autopilot steps applied by api replica 1: [${appliedBy[0].join(', ')}], ` +
      `by api replica 2: [${appliedBy[1].join(', ')}]; ${waiting} tickers raced for step 0`,
  );
});

test('a guarded rollout checked by both api replicas takes each step once', async ({ request }) => {
  test.setTimeout(60_000);
  const FLAG = 'new_checkout_flow';
  const rolloutOf = async () =>
    (
      await getJson<{ allocations: { key: string; rolloutPercentage: number }[] }>(
        request,
        `${topology.apiUrl}/flags/${FLAG}`,
      )
    ).allocations.find((allocation) => allocation.key === 'rollout')!.rolloutPercentage;
  const rolloutBefore = await rolloutOf();
  // Healthy traffic: sessions of both variants, no errors. The guard steps on only once the
  // comparison counts (minSessions of each variant in the step's window) and never trips.
  const guard: GuardBody = {
    allocation: 'rollout',
    metric: { kind: 'js-errors-per-session' },
    control: 'off',
    treatment: 'on',
    margin: 0.5,
    minSessions: 2,
    action: 'rollback',
    steps: [25, 50, 100],
    holdMs: 1_500,
    checkEveryMs: 1_000,
  };
  const from = topology.passes().length;
  const since = Date.now();
  let waiting = 0;
  let serial = 0;
  const sendSessions = async (perVariant: number) => {
    const at = Date.now();
    const lines: string[] = [];
    for (const variant of [false, true]) {
      for (let i = 0; i < perVariant; i += 1) {
        serial += 1;
        lines.push(
          JSON.stringify({
            type: 'view',
            date: at,
            application: { id: 'scale-out-test' },
            session: { id: `scale-guard-${since}-${serial}`, type: 'user' },
            view: { id: `scale-guard-view-${since}-${serial}`, url: `${topology.webUrl}/checkout` },
            _dd: { document_version: 1 },
            service: 'showroom-web',
            feature_flags: { [FLAG]: variant },
          }),
        );
      }
    }
    const response = await request.post(
      `${topology.apiUrl}/intake?ddforward=${encodeURIComponent('/api/v2/rum?ddsource=browser')}`,
      { headers: { 'content-type': 'text/plain' }, data: lines.join('\n') },
    );
    expect(response.status(), await response.text()).toBe(202);
  };

  try {
    const put = await request.put(`${topology.apiUrl}/flags/${FLAG}/guard`, {
      data: guard,
      headers: OPERATOR,
    });
    expect(put.status(), await put.text()).toBe(200);
    const { stepStartedAt } = (await put.json()) as GuardState;
    // Both replicas line up on the first check after the hold: the guards' table is locked
    // while step 0 holds (traffic still comes in), so each replica's checker waits on its read;
    // released, both read the same version at once and both decide to step on — the versioned
    // update (decision 019) lets one of them act.
    const lock = await topology.lockTable('flag_guards');
    try {
      await expect
        .poll(
          async () => {
            await sendSessions(2);
            waiting = await lock.waiting();
            return waiting >= 2 && Date.now() >= stepStartedAt + guard.holdMs + 200;
          },
          { timeout: 10_000, intervals: [250] },
        )
        .toBe(true);
    } finally {
      await lock.release();
    }
    // Each poll sends a little traffic, then reads the guard (on either replica).
    await expect
      .poll(
        async () => {
          await sendSessions(2);
          return (await getJson<GuardState>(request, `${topology.apiUrl}/guards/${FLAG}`)).status;
        },
        { timeout: 40_000, intervals: [250] },
      )
      .toBe('completed');
    expect(await rolloutOf()).toBe(100);

    const markers = await markersOf(request, 'guard', since, FLAG);
    expect(
      markers.map((marker) => {
        const after = marker.after as { step?: number; percentage: number };
        return [marker.action, after.step ?? null, after.percentage];
      }),
    ).toEqual([
      ['step', 0, 25],
      ['step', 1, 50],
      ['step', 2, 100],
      ['completed', null, 100],
    ]);
    // The flag's rollout changed once per step, each by the guard (a step to the percentage
    // the allocation already has changes nothing, so it is left out of the audit).
    const rollouts = (await markersOf(request, 'flag', since, FLAG)).filter(
      (marker) => marker.operator === 'guard',
    );
    expect(
      rollouts.map((marker) => (marker.after as { rolloutPercentage: number }).rolloutPercentage),
    ).toEqual(guard.steps!.filter((percentage) => percentage !== rolloutBefore));

    // Both replicas took the guard's traffic and reads (a poll's two requests go one to each
    // replica, alternately); what each logged as done by itself adds up to the two steps after
    // the first (set by the PUT); the step to 100 % completes the rollout in the same action
    // (docs/decisions/020-guarded-rollout-scenario.md).
    expect(upstreamsOf(from, ['/intake', `/guards/${FLAG}`])).toEqual(addresses(PORTS.apis));
    const actedBy = loggedBy('guard acted', (line) =>
      line.flag === FLAG ? [line.decision as string] : [],
    );
    expect([...actedBy[0], ...actedBy[1]].sort()).toEqual(['advance', 'advance']);
    console.info(
      `scale-out: guard decisions acted on by api replica 1: [${actedBy[0].join(', ')}], ` +
        `by api replica 2: [${actedBy[1].join(', ')}]; ${waiting} checkers raced for step 1`,
    );
  } finally {
    await request.delete(`${topology.apiUrl}/flags/${FLAG}/guard`, { headers: OPERATOR });
    await request.put(`${topology.apiUrl}/flags/${FLAG}/rollout`, {
      data: { allocationKey: 'rollout', percentage: rolloutBefore },
      headers: OPERATOR,
    });
  }
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
