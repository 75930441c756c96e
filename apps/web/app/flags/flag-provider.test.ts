import { describe, expect, it } from 'vitest';
import { resolveProfileAddresses } from '../startup/deployment-profiles';
import { loadDefaultProfiles } from '../startup/profile-validation';
import { buildEvaluationContext } from './evaluation-context';
import { flagProviderOptions, isDemoMode, waitForProviderReady } from './flag-provider';

function fakeClock() {
  let time = 0;
  return {
    now: () => time,
    sleep: (ms: number) => {
      time += ms;
      return Promise.resolve();
    },
  };
}

describe('waiting for the flag provider (docs/requirements.md §4, §9)', () => {
  it('polls every 100 ms until READY', async () => {
    const clock = fakeClock();
    const warnings: string[] = [];
    let polls = 0;
    const ready = await waitForProviderReady({
      ...clock,
      isReady: () => ++polls > 5,
      warn: (message) => warnings.push(message),
    });
    expect(ready).toBe(true);
    expect(clock.now()).toBe(500);
    expect(warnings).toEqual([]);
  });

  it("gives up after 10000 ms with 'Provider ready timeout - proceeding anyway'", async () => {
    const clock = fakeClock();
    const warnings: string[] = [];
    const ready = await waitForProviderReady({
      ...clock,
      isReady: () => false,
      warn: (message) => warnings.push(message),
    });
    expect(ready).toBe(false);
    expect(clock.now()).toBe(10_000);
    expect(warnings).toEqual(['Provider ready timeout - proceeding anyway']);
  });
});

describe('provider options from a deployment profile', () => {
  const profiles = loadDefaultProfiles();

  it('points the local profile at the flag service and intake on the page origin', () => {
    // Start-up resolves the profile's paths against the page origin before the provider starts.
    const local = resolveProfileAddresses(profiles.local!, 'http://shop.test:3000');
    const options = flagProviderOptions(local, '6.11.22');
    expect(options.flaggingProxy).toBe('http://shop.test:3000/api/flags/precompute-assignments');
    expect(
      typeof options.proxy === 'function' &&
        options.proxy({ path: '/api/v2/exposures', parameters: 'ddsource=browser' }),
    ).toBe(
      'http://shop.test:3000/api/intake?ddforward=%2Fapi%2Fv2%2Fexposures%3Fddsource%3Dbrowser',
    );
    expect(options).toMatchObject({
      applicationId: local.applicationId,
      clientToken: local.clientToken,
      enableExposureLogging: true,
      version: '6.11.22',
    });
    expect(isDemoMode(local)).toBe(true);
  });

  it('reports no exposures or evaluations in a webview (monitoring skipped)', () => {
    const options = flagProviderOptions(profiles.local!, '6.11.22', { telemetry: false });
    expect(options).toMatchObject({
      enableExposureLogging: false,
      enableFlagEvaluationTracking: false,
      flaggingProxy: profiles.local!.flagsUrl,
    });
    expect(options).not.toHaveProperty('proxy');
  });

  it('sends a profile without a flag service or proxy to Datadog itself', () => {
    const direct = Object.values(profiles).find((profile) => profile.flagsUrl === null);
    expect(direct).toBeDefined();
    const options = flagProviderOptions(direct!, '1.0.0');
    expect(options).not.toHaveProperty('flaggingProxy');
  });
});

describe('evaluation context (docs/requirements.md §4)', () => {
  it('carries the stored identity and the browser family under the targeting names', () => {
    expect(
      buildEvaluationContext(
        {
          id: 'ab12cd34',
          name: 'ada.lovelace',
          email: 'ada@example.com',
          team: 'engineering',
          useDiscount: true,
          useNewCheckoutFlow: false,
        },
        'Firefox',
      ),
    ).toEqual({
      targetingKey: 'ab12cd34',
      user_id: 'ab12cd34',
      user_name: 'ada.lovelace',
      user_email: 'ada@example.com',
      browser: 'Firefox',
      team: 'engineering',
      useDiscount: true,
      useNewCheckoutFlow: false,
    });
  });
});
