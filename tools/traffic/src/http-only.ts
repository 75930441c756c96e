import type { TrafficJourney } from '@showroom/contracts/traffic';
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
}

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
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const started = performance.now();
    env.counts.requests += 1;
    const response = await fetch(`${env.apiUrl}${path}`, {
      method,
      signal: env.signal,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await response.arrayBuffer();
    env.latencies.push(performance.now() - started);
    const setCookie = response.headers.getSetCookie?.() ?? [];
    if (setCookie.length > 0) cookie = setCookie.map((line) => line.split(';')[0]).join('; ');
    if (!response.ok) {
      env.counts.errors += 1;
      throw new Error(`${method} ${path} answered ${response.status}`);
    }
  };
  try {
    await call('GET', '/session');
    await call('GET', '/departments');
    const department = choose(env.departments);
    await call('GET', `/departments/${department}/products?limit=24`);
    if (plan.journey === 'search' || plan.journey === 'sort') {
      await call('GET', `/search?q=${encodeURIComponent(choose(SEARCH_WORDS))}`);
    }
    const product = choose(env.productIds);
    await call('GET', `/products/${product}`);
    if (CART_JOURNEYS.has(plan.journey) && plan.leavesAt !== 'product') {
      await call('POST', '/cart/items', { productId: product, edition: 'standard', quantity: 1 });
      await call('GET', '/cart');
    }
    result.ok = true;
  } catch (error) {
    if (env.signal.aborted) result.aborted = true;
    else result.error = (error as Error).message.slice(0, 200);
  }
  result.durationMs = Date.now() - startedAt;
  return result;
}
