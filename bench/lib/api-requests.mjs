// The requests the api and scale parts send, shaped as the shop's clients send them
// (docs/architecture.md): the web app's catalog, cart and checkout calls, the Datadog flag
// provider's precompute-assignments request and the RUM SDK's intake batches. Each is an
// autocannon request list; `setupRequest` varies ids so no answer is a cached repeat.

const SESSION_COOKIE = 'showroom_session';

/** `GET /products/{id}` over `ids`, in turn. */
export function productRequests(ids) {
  let next = 0;
  return [
    {
      method: 'GET',
      setupRequest: (request) => ({ ...request, path: `/products/${ids[next++ % ids.length]}` }),
    },
  ];
}

/** The department listing (first page, featured order) over `slugs`, in turn. */
export function departmentRequests(slugs) {
  let next = 0;
  return [
    {
      method: 'GET',
      setupRequest: (request) => ({
        ...request,
        path: `/departments/${slugs[next++ % slugs.length]}/products`,
      }),
    },
  ];
}

function sessionCookieOf(headers) {
  const setCookie = headers['set-cookie'] ?? headers['Set-Cookie'];
  const first = [setCookie].flat().find((value) => value?.startsWith(`${SESSION_COOKIE}=`));
  return first?.split(';')[0];
}

/**
 * `POST /cart/items` as a shopper adds products: each connection's session (the cookie the
 * first answer sets) adds one of two products `perSession` times, then a new session starts
 * (autocannon clears the context when its request list wraps), so a cart stays two lines long
 * and below the 99-per-line limit.
 */
export function addToCartRequests(ids, perSession = 40) {
  let next = 0;
  const add = {
    method: 'POST',
    path: '/cart/items',
    headers: { 'content-type': 'application/json' },
    setupRequest: (request, context) => {
      context.products ??= [ids[next++ % ids.length], ids[next++ % ids.length]];
      context.adds = (context.adds ?? 0) + 1;
      return {
        ...request,
        headers: {
          ...request.headers,
          ...(context.cookie ? { cookie: context.cookie } : {}),
        },
        body: JSON.stringify({
          productId: context.products[context.adds % 2],
          edition: context.adds % 5 === 0 ? 'special' : 'standard',
          quantity: 1,
        }),
      };
    },
    onResponse: (_status, _body, context, headers) => {
      context.cookie ??= sessionCookieOf(headers);
    },
  };
  return Array.from({ length: perSession }, () => add);
}

/**
 * Fills `count` carts, one per new session, with one product each (as a shopper does before
 * checkout): answers the session cookies. `concurrency` requests at a time.
 */
export async function fillCarts(url, ids, count, concurrency = 50) {
  const cookies = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const productId = ids[next++ % ids.length];
      const response = await fetch(`${url}/cart/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ productId, edition: 'standard', quantity: 1 }),
      });
      if (response.status !== 200) {
        throw new Error(`filling a cart: POST /cart/items answered ${response.status}`);
      }
      const cookie = sessionCookieOf({ 'set-cookie': response.headers.getSetCookie() });
      if (!cookie) throw new Error('filling a cart: no session cookie in the answer');
      cookies.push(cookie);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return cookies;
}

/** Card expiry a few years ahead, so the bench does not age. */
const EXPIRY = { expMonth: 12, expYear: new Date().getUTCFullYear() + 3 };

/**
 * `POST /checkout/orders` as the checkout form sends it (card payment, an Idempotency-Key per
 * attempt), one per filled cart: every request takes the next cookie of `cookies`.
 * The card is the gateway's documented always-succeeds test card; nothing here logs it.
 */
export function placeOrderRequests(cookies) {
  let next = 0;
  let attempt = 0;
  const body = JSON.stringify({
    shipping: {
      name: 'Bench Shopper',
      email: 'bench@example.com',
      address1: '1 Load Street',
      city: 'Springfield',
      postalCode: 'AB1 2CD',
      country: 'US',
    },
    payment: { type: 'card', card: { number: '4242 4242 4242 4242', cvc: '123', ...EXPIRY } },
  });
  return [
    {
      method: 'POST',
      path: '/checkout/orders',
      setupRequest: (request) => ({
        ...request,
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `bench-${process.pid}-${Date.now()}-${attempt++}`,
          cookie: cookies[next++ % cookies.length],
        },
        body,
      }),
    },
  ];
}

/**
 * The evaluation context of one sample shopper as the web app builds it (R-4.19, the contract's
 * buildFlagSubject) and the Datadog browser provider sends it: every value a string.
 */
function precomputeBody(shopper) {
  const id = `shopper${String(shopper).padStart(4, '0')}`;
  const context = {
    targetingKey: id,
    browser: ['Chrome', 'Firefox', 'Safari', 'Edge'][shopper % 4],
    user_id: id,
    user_name: `bench.shopper.${shopper}`,
    user_email: `shopper${shopper}@example.com`,
    team: ['engineering', 'design', 'marketing', 'product', 'sales'][shopper % 5],
    useDiscount: shopper % 3 === 0,
    useNewCheckoutFlow: shopper % 2 === 0,
  };
  const attributes = {};
  for (const [key, value] of Object.entries(context)) {
    attributes[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return JSON.stringify({
    data: {
      type: 'precompute-assignments-request',
      attributes: {
        env: { dd_env: 'demo' },
        source: { sdk_name: 'browser', sdk_version: 'dev' },
        subject: { targeting_key: id, targeting_attributes: attributes },
      },
    },
  });
}

let neverAsked = 1_000_000;

/**
 * `POST /flags/precompute-assignments` for `shoppers` different shoppers, in turn; with
 * `Infinity`, a shopper the api has not been asked about yet on every request.
 */
export function precomputeRequests(shoppers = 1000) {
  const bodies = Number.isFinite(shoppers)
    ? Array.from({ length: shoppers }, (_, shopper) => precomputeBody(shopper))
    : undefined;
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/flags/precompute-assignments?dd_env=demo',
      headers: { 'content-type': 'application/vnd.api+json' },
      setupRequest: (request) => ({
        ...request,
        body: bodies ? bodies[next++ % bodies.length] : precomputeBody(neverAsked++),
      }),
    },
  ];
}

export const RUM_BATCH_EVENTS = 50;
const RUM_PATH = '/api/v2/rum?ddsource=browser&dd-api-key=pub&batch_time=1&_dd.api=fetch';

/**
 * One RUM batch of RUM_BATCH_EVENTS events as @datadog/browser-rum sends it through the proxy
 * (NDJSON, text/plain; see apps/api's rum-factories): one view update and the actions,
 * resources, errors, long tasks and vitals of that view. `@B@` stands for the batch number, so
 * every batch's events have their own ids and are all stored.
 */
function rumBatchTemplate() {
  const base = (type, offset) => ({
    date: 1_767_225_600_000 + offset,
    application: { id: '00000000-0000-0000-0000-000000000017' },
    session: { id: 'bench-session-@S@', type: 'user', has_replay: false },
    view: { id: 'bench-view-@B@', url: 'http://localhost:3000/department/tables', referrer: '' },
    service: 'showroom-web',
    version: '0.1.0',
    source: 'browser',
    type,
    ddtags: 'sdk_version:6.22.0,env:bench,service:showroom-web,version:0.1.0',
    usr: { id: 'a1b2c3d4', name: 'ada.lovelace', email: 'ada@example.com', team: 'engineering' },
    feature_flags: { show_loaf: true, recommendations_strategy: 'bestsellers' },
    _dd: { format_version: 2, drift: 0 },
  });
  const events = [];
  const view = base('view', 0);
  view.view = {
    ...view.view,
    loading_time: 412_000_000,
    first_contentful_paint: 180_000_000,
    largest_contentful_paint: 820_000_000,
    cumulative_layout_shift: 0.01,
    time_spent: 5_000_000_000,
    action: { count: 20 },
    error: { count: 4 },
    resource: { count: 20 },
    long_task: { count: 3 },
    is_active: true,
  };
  view._dd = { ...view._dd, document_version: 3 };
  events.push(view);
  for (let i = 0; events.length < RUM_BATCH_EVENTS; i++) {
    const kind = ['action', 'resource', 'action', 'resource', 'error', 'long_task', 'vital'][i % 7];
    const event = base(kind, 100 + i * 50);
    const id = `${kind}-@B@-${i}`;
    if (kind === 'action') {
      event.action = { id, type: 'click', target: { name: `add to cart ${i}` } };
    } else if (kind === 'resource') {
      event.resource = {
        id,
        type: 'fetch',
        method: 'GET',
        url: `http://localhost:3000/api/products/${i + 1}`,
        status_code: 200,
        duration: 35_000_000,
        size: 1840,
      };
    } else if (kind === 'error') {
      event.error = { id, message: 'Could not add to cart', source: 'custom', type: 'Error' };
    } else if (kind === 'long_task') {
      event.long_task = { id, duration: 72_000_000, entry_type: 'long-task' };
    } else {
      event.vital = { id, type: 'duration', name: `checkout step ${i}`, duration: 250_000_000 };
    }
    events.push(event);
  }
  return events.map((event) => JSON.stringify(event)).join('\n');
}

/**
 * `POST /intake?ddforward=/api/v2/rum…` with a new batch each time (new view and event ids);
 * 20 batches share a RUM session, as a browser session sends many.
 */
export function intakeRequests(runId = Date.now()) {
  const template = rumBatchTemplate();
  let batch = 0;
  return [
    {
      method: 'POST',
      path: `/intake?ddforward=${encodeURIComponent(RUM_PATH)}`,
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      setupRequest: (request) => {
        const b = `${runId}-${batch++}`;
        return {
          ...request,
          body: template
            .replaceAll('@B@', b)
            .replaceAll('@S@', `${runId}-${Math.floor(batch / 20)}`),
        };
      },
    },
  ];
}

/** RUM events stored so far: one row per view (its newest version) and per other event. */
export function countStoredRumEvents(sqlite) {
  return sqlite
    .prepare('select (select count(*) from rum_events) + (select count(*) from rum_views) as n')
    .get().n;
}
