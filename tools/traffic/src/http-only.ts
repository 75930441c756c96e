import { EXPOSURES_FORWARD_PATH, type ExposureEvent } from '@showroom/contracts/exposures';
import { PLACE_ORDER_PATH } from '@showroom/contracts/checkout-constants';
import {
  INSTANT_PAY_ALLOCATION,
  TRACKING_EVENTS,
  TRACKING_ROUTE,
  type TrackingEvent,
  type TrackingEventName,
} from '@showroom/contracts/experiments';
import type { TrafficJourney, TrafficProfile } from '@showroom/contracts/traffic';
import {
  baseConversionRate,
  CLIENT_SIDE_FLAG,
  convertsWithEffect,
  drawInstantPay,
  plannedToBuy,
} from './experiment.js';
import { TEST_ADDRESS, TEST_CARDS } from './journeys.js';
import type { SessionPlan } from './planner.js';
import { newSessionResult, type SessionResult } from './session.js';
import { SEARCH_WORDS } from './shop-journeys.js';

export interface HttpEnvironment {
  /** The shop's api as the browser reaches it (`<base>/api`). */
  apiUrl: string;
  departments: readonly string[];
  productIds: readonly number[];
  signal: AbortSignal;
  /** Every request's latency, ms (for the percentiles). */
  latencies: number[];
  counts: { requests: number; errors: number };
  /** The run's profile (its designed experiment) and id (the experiment's subject ids). */
  profile?: TrafficProfile;
  runId?: string;
}

type Call = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<unknown>;

const CART_JOURNEYS = new Set<TrafficJourney>(['abandon-cart', 'checkout', 'checkout-single-page']);

/**
 * One session without a browser: the api calls a shopper's pages make (departments, a listing,
 * products, a search, the session and a cart add), one after the other, with a cookie jar.
 */
export async function runHttpSession(
  plan: SessionPlan,
  env: HttpEnvironment,
): Promise<SessionResult> {
  const startedAt = Date.now();
  const result = newSessionResult(plan, startedAt);
  let cookie = '';
  let choice = 0;
  const choose = <T>(entries: readonly T[]): T =>
    entries[Math.floor(plan.choices[choice++ % plan.choices.length]! * entries.length)]!;
  const call: Call = async (method, path, body, headers = {}) => {
    const started = performance.now();
    env.counts.requests += 1;
    const text = typeof body === 'string';
    const response = await fetch(`${env.apiUrl}${path}`, {
      method,
      signal: env.signal,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': text ? 'text/plain' : 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: text ? body : JSON.stringify(body) }),
    });
    const answer = await response.text();
    env.latencies.push(performance.now() - started);
    const setCookie = response.headers.getSetCookie?.() ?? [];
    if (setCookie.length > 0) cookie = setCookie.map((line) => line.split(';')[0]).join('; ');
    if (!response.ok) {
      env.counts.errors += 1;
      throw new Error(`${method} ${path} answered ${response.status}`);
    }
    return response.headers.get('content-type')?.includes('json') ? JSON.parse(answer) : null;
  };
  try {
    await call('GET', '/session');
    await call('GET', '/departments');
    const department = choose(env.departments);
    // An experiment's sessions buy: they choose among what is in stock, so a long run that
    // sells products out still measures conversion rather than sold-out errors.
    const experimenting = Boolean(env.profile?.experiment && plan.experimentDraws);
    const listing = (await call(
      'GET',
      `/departments/${department}/products?limit=24${experimenting ? '&inStock=true' : ''}`,
    )) as { products?: { id: number }[] } | null;
    if (plan.journey === 'search' || plan.journey === 'sort') {
      await call('GET', `/search?q=${encodeURIComponent(choose(SEARCH_WORDS))}`);
    }
    const inStock = listing?.products?.map((entry) => entry.id) ?? [];
    const product = choose(experimenting && inStock.length > 0 ? inStock : env.productIds);
    await call('GET', `/products/${product}`);
    if (CART_JOURNEYS.has(plan.journey) && plan.leavesAt !== 'product') {
      await call('POST', '/cart/items', { productId: product, edition: 'standard', quantity: 1 });
      await call('GET', '/cart');
      const experiment = env.profile?.experiment;
      if (experiment && plan.experimentDraws) {
        await experimentCheckout(plan, env, call, result);
      }
    }
    result.ok = true;
  } catch (error) {
    if (env.signal.aborted) result.aborted = true;
    else result.error = (error as Error).message.slice(0, 200);
  }
  result.durationMs = Date.now() - startedAt;
  return result;
}

/**
 * The rest of a session under an `experiment` profile, from the cart on (README "Traffic
 * generator"): the variant it is shown (instant_pay drawn as /cart draws it, any other flag from
 * the flag service's OFREP route), that exposure logged as the shop logs it, OpenFeature's
 * tracking events as the shop sends them, and a real order when the designed effect says the
 * shopper buys.
 */
async function experimentCheckout(
  plan: SessionPlan,
  env: HttpEnvironment,
  call: Call,
  result: SessionResult,
): Promise<void> {
  const profile = env.profile!;
  const experiment = profile.experiment!;
  const draws = plan.experimentDraws!;
  const subjectId = `traffic-${env.runId ?? 'run'}-${plan.index}`;
  const track = (name: TrackingEventName, extra: Partial<TrackingEvent> = {}) =>
    call('POST', TRACKING_ROUTE, {
      events: [{ targetingKey: subjectId, name, timestamp: Date.now(), ...extra }],
    });

  let variant: string | null;
  let allocation: string;
  let logged = true;
  if (experiment.flag === CLIENT_SIDE_FLAG) {
    variant = drawInstantPay(draws.variant);
    allocation = INSTANT_PAY_ALLOCATION;
  } else {
    const answer = (await call('POST', `/ofrep/v1/evaluate/flags/${experiment.flag}`, {
      context: { targetingKey: subjectId },
    })) as { variant?: string; metadata?: { allocationKey?: string; doLog?: boolean } } | null;
    variant = answer?.variant ?? null;
    allocation = answer?.metadata?.allocationKey ?? '';
    logged = answer?.metadata?.doLog === true && allocation !== '';
  }
  result.experimentVariant = variant;
  if (variant !== null && logged) {
    const exposure: ExposureEvent = {
      allocation: { key: allocation },
      flag: { key: experiment.flag },
      variant: { key: variant },
      subject: { id: subjectId, attributes: {} },
      timestamp: Date.now(),
      service: 'showroom-traffic',
    };
    await call(
      'POST',
      `/intake?ddforward=${encodeURIComponent(EXPOSURES_FORWARD_PATH)}`,
      JSON.stringify(exposure),
    );
  }
  await track(TRACKING_EVENTS.addToCart);
  const buys = convertsWithEffect({
    plannedToBuy: plannedToBuy(plan),
    base: baseConversionRate(profile),
    shownVariant: variant ?? '',
    experiment,
    effectDraw: draws.effect,
  });
  if (!buys) {
    result.leftAt = 'cart';
    return;
  }
  await track(TRACKING_EVENTS.beginCheckout);
  const order = (await call(
    'POST',
    PLACE_ORDER_PATH,
    {
      shipping: { ...TEST_ADDRESS, country: 'US' },
      payment: {
        type: 'card',
        card: {
          number: TEST_CARDS.succeeds,
          cvc: '123',
          expMonth: 12,
          expYear: new Date().getUTCFullYear() + 3,
        },
      },
      ...(experiment.flag === CLIENT_SIDE_FLAG && variant ? { instantPayVariant: variant } : {}),
    },
    { 'idempotency-key': `${subjectId}-order` },
  )) as { id: string; totalCents: number; currency: string };
  await track(TRACKING_EVENTS.purchase, {
    value: order.totalCents,
    currency: order.currency,
    details: { order_id: order.id },
  });
  result.converted = true;
}
