import { describe, expect, it } from 'vitest';
import { resolveProfileAddresses, type DeploymentProfile } from '../startup/deployment-profiles';
import { loadDefaultProfiles, validateProfile } from '../startup/profile-validation';
import { rawProfile } from '../startup/test-support/raw-profile';
import { monitoringInitOptions } from './init-options';

const profiles = loadDefaultProfiles();
const local = profiles['local'] as DeploymentProfile;

/** The options for `profile`, with its own backend unless another is in use. */
function initOptions(profile: DeploymentProfile, version: string, backendUrl = profile.backendUrl) {
  return monitoringInitOptions({ profile, version, backendUrl });
}

describe('monitoringInitOptions', () => {
  const bare = validateProfile('bare', rawProfile({ enableTracing: true }));

  it('R-9.5 R-3.12 spec defaults for rates, replay, privacy and tracking', () => {
    expect(initOptions(bare, '6.11.22-rc')).toEqual({
      applicationId: bare.applicationId,
      clientToken: bare.clientToken,
      site: 'datadoghq.com',
      service: 'showroom-web',
      env: 'dev',
      version: '6.11.22-rc',
      sessionSampleRate: 100,
      telemetrySampleRate: 20,
      telemetryConfigurationSampleRate: 5,
      telemetryUsageSampleRate: 5,
      sessionReplaySampleRate: 100,
      profilingSampleRate: 100,
      startSessionReplayRecordingManually: true,
      defaultPrivacyLevel: 'mask-user-input',
      trackUserInteractions: true,
      trackResources: true,
      trackLongTasks: true,
      allowUntrustedEvents: false,
      allowedTracingUrls: [
        {
          match: 'https://dev-api.test.showroom.example.net',
          propagatorTypes: ['tracecontext', 'datadog'],
        },
      ],
      trackFeatureFlagsForEvents: ['action', 'resource', 'long_task', 'vital'],
    });
  });

  it('R-3.12 rates set by the profile win over the defaults', () => {
    const options = initOptions({ ...bare, sessionSampleRate: 10, telemetrySampleRate: 0 }, 'v');
    expect(options).toMatchObject({
      sessionSampleRate: 10,
      telemetrySampleRate: 0,
      sessionReplaySampleRate: 100,
    });
  });

  it('R-7.8 tracing covers the (overridden) backend and the allowed URLs, once each', () => {
    const main = profiles['main'] as DeploymentProfile;
    const options = initOptions(main, 'v', 'http://localhost:4001');
    expect(options.allowedTracingUrls).toEqual([
      { match: 'http://localhost:4001', propagatorTypes: ['tracecontext', 'datadog'] },
      {
        match: 'https://payments.showroom.example.com',
        propagatorTypes: ['tracecontext', 'datadog'],
      },
    ]);
    const same = initOptions({ ...main, allowedTracingUrls: [main.backendUrl] }, 'v');
    expect(same.allowedTracingUrls).toHaveLength(1);
  });

  it('R-7.8 a profile with tracing off traces nothing', () => {
    expect(initOptions({ ...bare, enableTracing: false }, 'v').allowedTracingUrls).toEqual([]);
  });

  it('the local profile traces its api on the page origin, so local traces flow', () => {
    expect(local.enableTracing).toBe(true);
    const resolved = resolveProfileAddresses(local, 'http://shop.test:3000');
    expect(initOptions(resolved, 'v').allowedTracingUrls).toEqual([
      { match: 'http://shop.test:3000/api', propagatorTypes: ['tracecontext', 'datadog'] },
    ]);
  });

  it("R-3.12 the intake URL becomes the SDK proxy: absolute, the SDK's own forward format", () => {
    const resolved = resolveProfileAddresses(local, 'http://shop.test:3000');
    const { proxy } = initOptions(resolved, 'v');
    expect(typeof proxy).toBe('function');
    expect(
      typeof proxy === 'function' &&
        proxy({ path: '/api/v2/rum', parameters: 'ddsource=browser&dd-api-key=pub' }),
    ).toBe(
      'http://shop.test:3000/api/intake?ddforward=%2Fapi%2Fv2%2Frum%3Fddsource%3Dbrowser%26dd-api-key%3Dpub',
    );
    expect(initOptions(bare, 'v')).not.toHaveProperty('proxy');
  });
});
