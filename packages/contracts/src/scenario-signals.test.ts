import { describe, expect, it } from 'vitest';
import {
  eventMatches,
  formatMeasure,
  measureSignal,
  pathOf,
  percentile,
  signalEventOf,
  type SignalEvent,
  type SignalSession,
} from './scenario-signals.js';
import { scenarioLink } from './scenario-link.js';

const view = (path: string, lcp: number): SignalEvent => ({
  type: 'view',
  path,
  metrics: { largest_contentful_paint: lcp },
});
const error = (message: string, path = '/checkout'): SignalEvent => ({
  type: 'error',
  path,
  message,
});
const session = (id: string, ...events: SignalEvent[]): SignalSession => ({ id, events });

describe('eventMatches', () => {
  it('needs every given field: type, name, message, url, path, context and duration', () => {
    const resource: SignalEvent = {
      type: 'resource',
      path: '/department/chairs/product/13',
      url: '/img/products/13/new-0-800.avif',
      durationMs: 2100,
      context: { scenario: 'x' },
    };
    expect(eventMatches({ type: 'resource', url: '/new-', minDurationMs: 2000 }, resource)).toBe(
      true,
    );
    expect(eventMatches({ type: 'resource', minDurationMs: 2200 }, resource)).toBe(false);
    expect(eventMatches({ type: 'resource', path: '^/cart' }, resource)).toBe(false);
    expect(eventMatches({ type: 'resource', context: { scenario: 'y' } }, resource)).toBe(false);
    expect(eventMatches({ type: 'error' }, resource)).toBe(false);
    expect(
      eventMatches(
        { type: 'action', name: 'begin checkout', context: { flow: 'single-page' } },
        {
          type: 'action',
          path: '/checkout',
          name: 'begin checkout',
          context: { flow: 'single-page' },
        },
      ),
    ).toBe(true);
  });
});

describe('percentile', () => {
  it('is the nearest rank', () => {
    expect(percentile([], 75)).toBeNull();
    expect(percentile([400], 75)).toBe(400);
    expect(percentile([100, 400, 300, 200], 75)).toBe(300);
    expect(percentile([100, 400, 300, 200], 100)).toBe(400);
  });
});

describe('measureSignal', () => {
  it('sessions-with: the share of sessions with enough matching events', () => {
    const rule = {
      kind: 'sessions-with' as const,
      match: { type: 'error' as const, message: '^Buy now failed', path: '^/checkout$' },
      minShare: 1,
    };
    const proven = measureSignal(rule, [
      session('a', error('Buy now failed: the order could not be placed')),
      session('b', error('Buy now failed: x'), error('other')),
    ]);
    expect(proven).toEqual({ measured: 1, holds: true, basis: '2 of 2 sessions' });
    const partly = measureSignal(rule, [
      session('a', error('Buy now failed')),
      session('b', error('Buy now failed', '/cart')),
    ]);
    expect(partly).toMatchObject({ measured: 0.5, holds: false });
    expect(
      measureSignal({ ...rule, atLeast: 2 }, [session('a', error('Buy now failed'))]).holds,
    ).toBe(false);
    expect(measureSignal(rule, [])).toEqual({
      measured: null,
      holds: false,
      basis: '0 of 0 sessions',
    });
  });

  it('sessions-with a share range: "in 10–20 % of sessions"', () => {
    const rule = {
      kind: 'sessions-with' as const,
      match: { type: 'error' as const },
      minShare: 0.1,
      maxShare: 0.2,
    };
    const sessions = Array.from({ length: 10 }, (_, i) =>
      session(`s${i}`, ...(i < 2 ? [error('x')] : [])),
    );
    expect(measureSignal(rule, sessions)).toMatchObject({ measured: 0.2, holds: true });
    sessions[2] = session('s2', error('x'));
    expect(measureSignal(rule, sessions)).toMatchObject({ measured: 0.3, holds: false });
  });

  it('view-percentile: above or below a bound, over the views of matching paths', () => {
    const sessions = [
      session('a', view('/department/tables/product/10', 900), view('/cart', 9000)),
      session('b', view('/department/tables/product/10', 1200)),
      session('c', view('/department/tables/product/10', 3100)),
    ];
    const rule = {
      kind: 'view-percentile' as const,
      metric: 'largest_contentful_paint' as const,
      path: '^/department/tables/product/10$',
      percentile: 75,
      below: 2500,
    };
    expect(measureSignal(rule, sessions)).toEqual({
      measured: 3100,
      holds: false,
      basis: 'p75 of 3 views',
    });
    expect(measureSignal({ ...rule, percentile: 50 }, sessions)).toMatchObject({
      measured: 1200,
      holds: true,
    });
    expect(measureSignal({ ...rule, below: undefined, above: 3000 }, sessions).holds).toBe(true);
    expect(formatMeasure(rule, 3100.4)).toBe('3100 ms');
  });

  it('ratio: matching events over the events of the denominator', () => {
    const order: SignalEvent = { type: 'action', path: '/checkout', name: 'place order' };
    const declined = error('Payment declined: insufficient funds');
    const rule = {
      kind: 'ratio' as const,
      numerator: { type: 'error' as const, message: '^Payment declined' },
      denominator: [
        { type: 'error' as const, message: '^Payment declined' },
        { type: 'action' as const, name: 'place order' },
      ],
      min: 0.2,
    };
    expect(
      measureSignal(rule, [session('a', declined, order, order), session('b', order)]),
    ).toEqual({
      measured: 0.25,
      holds: true,
      basis: '1 of 4 events',
    });
    expect(
      measureSignal(rule, [session('a', order, order, order, order, order, declined)]).holds,
    ).toBe(false);
    expect(measureSignal(rule, [session('a')])).toMatchObject({ measured: null, holds: false });
    expect(formatMeasure(rule, 0.25)).toBe('25 %');
  });
});

describe('scenarioLink', () => {
  it('adds the switches and the tag to the entry, encoded', () => {
    expect(scenarioLink('/', { 'ffe-buy-now-button': 'true' }, 'buy-now')).toBe(
      '/?ffe-buy-now-button=true&scenario=buy-now',
    );
    expect(scenarioLink('/search?q=sofa', { a: 'x y' }, 'b')).toBe(
      '/search?q=sofa&a=x%20y&scenario=b',
    );
  });
});

describe('signalEventOf', () => {
  it('reads what a rule needs from a RUM event as the SDK sends it', () => {
    expect(pathOf('http://shop.test:3000/department/chairs?x=1#top')).toBe('/department/chairs');
    expect(pathOf('http://shop.test:3000/api/cart?country=GB', true)).toBe('/api/cart?country=GB');
    expect(pathOf('http://shop.test')).toBe('/');
    expect(
      signalEventOf({
        type: 'resource',
        view: { url: 'http://localhost:3000/department/chairs/product/13' },
        resource: {
          url: 'http://localhost:3000/img-slow/3000/products/13/std-0-800.avif',
          duration: 3_100_000_000,
        },
        context: { scenario: 'slow-product-images' },
      }),
    ).toEqual({
      type: 'resource',
      path: '/department/chairs/product/13',
      url: '/img-slow/3000/products/13/std-0-800.avif',
      durationMs: 3100,
      context: { scenario: 'slow-product-images' },
    });
    expect(
      signalEventOf({
        type: 'view',
        view: { url: 'http://x/cart', largest_contentful_paint: '820000000' },
      })?.metrics?.largest_contentful_paint,
    ).toBe(820);
    expect(signalEventOf({ type: 'telemetry' })).toBeNull();
  });
});
