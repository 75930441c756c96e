import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Compile } from 'typebox/compile';
import { TrackingBatchSchema } from '@showroom/contracts/experiments';
import { ExposureEventSchema } from '@showroom/contracts/exposures';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';

import type * as FlagReporting from './flag-reporting';
import type * as FlagTracking from './flag-tracking';
import type * as MonitoringTrack from '../monitoring/track';

type Reporting = typeof FlagReporting & typeof FlagTracking;
type Track = typeof MonitoringTrack;

const batchCheck = Compile(TrackingBatchSchema);
const exposureCheck = Compile(ExposureEventSchema);

/** Each test gets fresh module state (queues, dedupe set) and a recording fetch. */
async function fresh(): Promise<{
  reporting: Reporting;
  track: Track;
  posts: { url: string; body: string }[];
}> {
  vi.resetModules();
  const posts: { url: string; body: string }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    posts.push({ url, body: String(init.body) });
    return Promise.resolve(new Response(null, { status: 202 }));
  });
  return {
    reporting: { ...(await import('./flag-reporting')), ...(await import('./flag-tracking')) },
    track: await import('../monitoring/track'),
    posts,
  };
}

const target = {
  intakeUrl: 'http://shop.test/api/intake',
  backendUrl: 'http://shop.test/api',
  service: 'showroom-web',
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('tracking events', () => {
  it('the checkout steps reach the OpenFeature tracker, queued until the provider connects', async () => {
    const { reporting, track } = await fresh();
    track.trackAction(MONITORING_ACTIONS.addToCart, { amount_cents: 4_500, currency: 'USD' });
    track.trackAction(MONITORING_ACTIONS.search, { result_count: 3 });
    const calls: unknown[][] = [];
    reporting.connectTracker((name, details) => void calls.push([name, details]));
    track.trackAction(MONITORING_ACTIONS.placeOrder, {
      order_id: 'ord_1',
      amount_cents: 12_950,
      currency: 'USD',
    });
    expect(calls).toEqual([
      ['add_to_cart', { value: 4_500, currency: 'USD' }],
      ['purchase', { value: 12_950, currency: 'USD', order_id: 'ord_1' }],
    ]);
  });

  it("a provider's track posts one event the route's schema accepts, with the targeting key", async () => {
    const { reporting, posts } = await fresh();
    reporting.configureFlagReporting(target);
    reporting.sendTrackingEvent(
      'purchase',
      'shopper-7',
      { value: 12_950, currency: 'USD', order_id: 'ord_1', nested: { no: 1 } },
      1_000,
    );
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url).toBe('http://shop.test/api/flags/track');
    const body: unknown = JSON.parse(posts[0]!.body);
    expect(batchCheck.Check(body)).toBe(true);
    expect(body).toEqual({
      events: [
        {
          targetingKey: 'shopper-7',
          name: 'purchase',
          timestamp: 1_000,
          value: 12_950,
          currency: 'USD',
          details: { order_id: 'ord_1' },
        },
      ],
    });
  });

  it('without a targeting key or a backend address nothing is sent', async () => {
    const { reporting, posts } = await fresh();
    reporting.sendTrackingEvent('purchase', 'shopper-7', {});
    reporting.configureFlagReporting({ ...target, backendUrl: null });
    reporting.sendTrackingEvent('purchase', 'shopper-7', {});
    reporting.configureFlagReporting(target);
    reporting.sendTrackingEvent('purchase', undefined, {});
    expect(posts).toEqual([]);
  });
});

describe('exposures', () => {
  const exposure = (variantKey: string) => ({
    flagKey: 'instant_pay',
    allocationKey: 'client-random',
    variantKey,
    subject: { id: 'shopper-7', attributes: { tier: 'gold' } },
  });

  it('are sent once each to the intake as NDJSON the exposures track accepts', async () => {
    const { reporting, posts } = await fresh();
    reporting.configureFlagReporting(target);
    reporting.logExposure(exposure('b'), 1_000);
    reporting.logExposure(exposure('b'), 2_000);
    reporting.logExposure(exposure('c'), 3_000);
    expect(posts).toEqual([]);
    vi.advanceTimersByTime(reporting.EXPOSURE_FLUSH_MS);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url).toBe(
      'http://shop.test/api/intake?ddforward=%2Fapi%2Fv2%2Fexposures%3Fddsource%3Dbrowser',
    );
    const lines = posts[0]!.body.split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines.every((line) => exposureCheck.Check(line))).toBe(true);
    expect(lines).toEqual([
      expect.objectContaining({ variant: { key: 'b' }, timestamp: 1_000 }),
      expect.objectContaining({ variant: { key: 'c' }, timestamp: 3_000 }),
    ]);
  });

  it('are not sent when the profile has no intake (a real site, a webview)', async () => {
    const { reporting, posts } = await fresh();
    reporting.configureFlagReporting({ ...target, intakeUrl: null });
    reporting.logExposure(exposure('a'));
    vi.advanceTimersByTime(reporting.EXPOSURE_FLUSH_MS);
    expect(posts).toEqual([]);
  });
});
