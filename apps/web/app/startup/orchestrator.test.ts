import { describe, expect, it, vi } from 'vitest';
import type { RumInitConfiguration } from '@datadog/browser-rum';
import { predictProfile, profileIndex, type DeploymentProfile } from './deployment-profiles';
import { loadDefaultProfiles } from './profile-validation';
import { runStartup, type StartupEnvironment } from './orchestrator';
import { monitoringInitOptions, type MonitoringSetup } from '../monitoring/init-options';
import type { SampleShopper, ShopperListKind } from '@showroom/contracts/shopper';
import type { MonitoringUserChoice } from './sample-identity';
import {
  BACKEND_URL_OVERRIDE_KEY,
  ERROR_SHA_KEY,
  FLAG_KEYS,
  IDENTITY_KEYS,
  INSTANT_PAY_VARIANT_KEY,
  IS_BETA_KEY,
  RUM_CONFIG_HOST_KEY,
  RUM_CONFIG_KEY_KEY,
} from './storage-keys';
import { createMemoryStorage, type MemoryStorage } from './test-support/memory-storage';
import { scriptedRandom, seededRandom } from './test-support/seeded-random';
import { createShopperList } from './test-support/shoppers';
import { sliceOfDay } from './day-slice';

const profiles = loadDefaultProfiles();

/** The URL the SDK's `proxy` gives for a request to the path `/p` without parameters. */
function forwardedBy(proxy: RumInitConfiguration['proxy']): string | undefined {
  return typeof proxy === 'function' ? proxy({ path: '/p', parameters: '' }) : proxy;
}
const index = profileIndex(profiles);
const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Wednesday 2026-11-18, 05:00 UTC: day slice 3, a beta build. */
const NOW = new Date('2026-11-18T05:00:00Z');

const STORED_IDENTITY = {
  [IDENTITY_KEYS.id]: '0badc0de',
  [IDENTITY_KEYS.name]: 'grace.hopper',
  [IDENTITY_KEYS.email]: 'grace.hopper@example.net',
  [IDENTITY_KEYS.team]: 'engineering',
  [IDENTITY_KEYS.useDiscount]: 'false',
  [IDENTITY_KEYS.useNewCheckoutFlow]: 'true',
};

interface Harness {
  env: StartupEnvironment;
  local: MemoryStorage;
  session: MemoryStorage;
  loadSampleShopper: ReturnType<
    typeof vi.fn<(kind: ShopperListKind, utcDay: number, index: number) => Promise<SampleShopper>>
  >;
  startMonitoring: ReturnType<
    typeof vi.fn<(setup: MonitoringSetup, user: MonitoringUserChoice) => Promise<void>>
  >;
  loadProfile: ReturnType<typeof vi.fn<(key: string) => Promise<DeploymentProfile>>>;
  flags: Array<[string, unknown]>;
  warnings: string[];
}

/** The monitoring SDK's init options made from what start-up handed over, if it started it. */
function startedOptions(h: Harness): RumInitConfiguration | undefined {
  const setup = h.startMonitoring.mock.calls[0]?.[0];
  return setup && monitoringInitOptions(setup);
}

function harness(
  url: string,
  overrides: Partial<StartupEnvironment> & { storedLocal?: Record<string, string> } = {},
): Harness {
  const { storedLocal, ...envOverrides } = overrides;
  const local = createMemoryStorage(storedLocal);
  const session = createMemoryStorage();
  // The entry of the day's slice as the web server answers it (routes/sample-shopper.ts).
  const loadSampleShopper = vi.fn(async (kind: ShopperListKind, utcDay: number, at: number) => {
    const shopper = sliceOfDay(createShopperList(350, kind === 'standard' ? 's' : 'l'), utcDay)[at];
    if (!shopper) throw new Error(`404 for ${kind} ${utcDay} ${at}`);
    return shopper;
  });
  const startMonitoring = vi.fn(async (_setup: MonitoringSetup, _user: MonitoringUserChoice) => {});
  const loadProfile = vi.fn(async (key: string) => {
    const profile = profiles[key];
    if (profile === undefined) throw new Error(`404 for ${key}`);
    return profile;
  });
  // What the server puts in the document: its prediction from the URL's ship and host.
  const page = new URL(url);
  const documentProfile = predictProfile(profiles, index, {
    ship: page.searchParams.get('ship'),
    host: page.host,
  });
  const flags: Array<[string, unknown]> = [];
  const warnings: string[] = [];
  const env: StartupEnvironment = {
    url: new URL(url),
    localStorage: local,
    sessionStorage: session,
    cookies: '',
    now: NOW,
    random: seededRandom(),
    userAgent: CHROME_UA,
    profileIndex: index,
    documentProfile,
    loadProfile,
    shopperListLengths: { standard: 350, loyalty: 350 },
    loadSampleShopper,
    startMonitoring,
    flagSink: { addFeatureFlagEvaluation: (key, value) => void flags.push([key, value]) },
    warn: (message) => void warnings.push(message),
    ...envOverrides,
  };
  return { env, local, session, loadSampleShopper, startMonitoring, loadProfile, flags, warnings };
}

describe('runStartup', () => {
  it.each(['/scenarios', '/scenarios/', '/scenarios/checkout-error'])(
    'R-2.2 does nothing on %s',
    async (path) => {
      const h = harness(`http://localhost:3000${path}?loyalty=true`);
      expect(await runStartup(h.env)).toBeNull();
      expect(h.local.snapshot()).toEqual({});
      expect(h.loadSampleShopper).not.toHaveBeenCalled();
      expect(h.startMonitoring).not.toHaveBeenCalled();
    },
  );

  it('R-4.10 R-4.12 R-4.15 R-9.8 a first visit fills the identity from the day slice and stores it all', async () => {
    // Draws: day-slice entry 0.5 → index 25 of slice 3 (s175); 0.9 → not anonymous.
    const h = harness('http://localhost:3000/', { random: scriptedRandom(0.5, 0.9) });
    const result = await runStartup(h.env);

    expect(h.loadSampleShopper.mock.calls).toEqual([['standard', 3, 25]]);
    expect(result?.identity?.id).toBe('s175');
    expect(result?.identityFilled).toHaveLength(6);
    expect(result?.shopperList).toBe('standard');
    expect(h.local.snapshot()).toMatchObject({
      [IDENTITY_KEYS.id]: 's175',
      [IDENTITY_KEYS.name]: 'shopper.s175',
      [RUM_CONFIG_KEY_KEY]: 'local',
      [RUM_CONFIG_HOST_KEY]: 'localhost:3000',
      [IS_BETA_KEY]: 'true',
      [ERROR_SHA_KEY]: expect.stringMatching(/^[0-9a-f]{8}$/),
    });
    expect(h.loadProfile).not.toHaveBeenCalled();
    expect(result).toMatchObject({
      profileKey: 'local',
      profileSource: 'host',
      backendUrl: 'http://localhost:3000/api',
      version: { version: '6.11.18-beta', isBeta: true },
      monitoringUser: { kind: 'sample', user: { id: 's175' } },
      monitoringStarted: true,
      experiments: [],
      browserFamily: 'Chrome',
    });
  });

  it('R-4.10 a fully stored identity is reused without loading a shopper list', async () => {
    const h = harness('http://localhost:3000/profile', { storedLocal: STORED_IDENTITY });
    const result = await runStartup(h.env);
    expect(h.loadSampleShopper).not.toHaveBeenCalled();
    expect(result?.identity).toMatchObject({ id: '0badc0de', useNewCheckoutFlow: true });
    expect(result?.identityFilled).toEqual([]);
    expect(result?.shopperList).toBeNull();
  });

  it('R-4.13 R-4.4 ?loyalty=true sets the flag and may draw from the loyalty list', async () => {
    // Draws: list coin 0.8 → loyalty; entry 0 → first of slice 3 (l150); 0.5 → not anonymous.
    const h = harness('http://localhost:3000/?loyalty=true', {
      random: scriptedRandom(0.8, 0, 0.5),
    });
    const result = await runStartup(h.env);
    expect(h.loadSampleShopper.mock.calls).toEqual([['loyalty', 3, 0]]);
    expect(result?.identity?.id).toBe('l150');
    expect(h.local.getItem(FLAG_KEYS.showLoyaltyProgram)).toBe('true');
  });

  it('R-4.15 ?ship=ap2 selects and persists the ap2 profile for the monitoring SDK', async () => {
    const h = harness('http://localhost:3000/?ship=ap2', { storedLocal: STORED_IDENTITY });
    const result = await runStartup(h.env);
    expect(result).toMatchObject({ profileKey: 'ap2', profileSource: 'ship' });
    expect(h.loadProfile).not.toHaveBeenCalled(); // the document carried it
    expect(h.local.getItem(RUM_CONFIG_KEY_KEY)).toBe('ap2');
    const options = startedOptions(h);
    expect(options).toMatchObject({
      site: 'ap2.datadoghq.com',
      env: 'prod',
      version: '6.11.18-beta',
    });
  });

  it('R-4.15 the local profile follows the page origin: backend, flags, intake and tracing', async () => {
    const h = harness('http://shop.test:4000/', { storedLocal: STORED_IDENTITY });
    const result = await runStartup(h.env);
    expect(result).toMatchObject({
      profileKey: 'local',
      profileSource: 'fallback',
      backendUrl: 'http://shop.test:4000/api',
      profile: {
        backendUrl: 'http://shop.test:4000/api',
        flagsUrl: 'http://shop.test:4000/api/flags/precompute-assignments',
        intakeUrl: 'http://shop.test:4000/api/intake',
      },
    });
    const options = startedOptions(h);
    expect(forwardedBy(options?.proxy)).toBe('http://shop.test:4000/api/intake?ddforward=%2Fp');
    expect(options).toMatchObject({
      allowedTracingUrls: [
        { match: 'http://shop.test:4000/api', propagatorTypes: ['tracecontext', 'datadog'] },
      ],
    });
  });

  it('R-4.15 a stored choice other than the document profile is fetched by key', async () => {
    const h = harness('http://localhost:3000/', {
      storedLocal: {
        ...STORED_IDENTITY,
        [RUM_CONFIG_KEY_KEY]: 'dda',
        [RUM_CONFIG_HOST_KEY]: 'localhost:3000',
      },
    });
    expect(h.env.documentProfile.key).toBe('local');
    const result = await runStartup(h.env);
    expect(h.loadProfile.mock.calls).toEqual([['dda']]);
    expect(result).toMatchObject({
      profileKey: 'dda',
      profileSource: 'stored',
      backendUrl: 'https://api.dda.showroom.example.com',
    });
    expect(startedOptions(h)).toMatchObject({
      applicationId: profiles['dda']?.applicationId,
    });
    expect(forwardedBy(startedOptions(h)?.proxy)).toBe(
      'https://api.dda.showroom.example.com/intake?ddforward=%2Fp',
    );
    expect(h.local.getItem(RUM_CONFIG_KEY_KEY)).toBe('dda');
  });

  it('R-4.15 a profile that cannot be fetched leaves the document profile in use and the choice stored', async () => {
    const h = harness('http://localhost:3000/', {
      storedLocal: {
        ...STORED_IDENTITY,
        [RUM_CONFIG_KEY_KEY]: 'dda',
        [RUM_CONFIG_HOST_KEY]: 'localhost:3000',
      },
      loadProfile: vi.fn(async () => {
        throw new Error('offline');
      }),
    });
    const result = await runStartup(h.env);
    expect(result).toMatchObject({
      profileKey: 'local',
      profileSource: 'fallback',
      backendUrl: 'http://localhost:3000/api',
      monitoringStarted: true,
    });
    expect(h.warnings).toEqual(['Failed to load the "dda" deployment profile; using "local":']);
    expect(h.local.getItem(RUM_CONFIG_KEY_KEY)).toBe('dda');
  });

  it('R-7.9 R-7.8 a stored backend override is used and traced', async () => {
    const h = harness('http://localhost:3000/', {
      storedLocal: {
        ...STORED_IDENTITY,
        [BACKEND_URL_OVERRIDE_KEY]: '{"local":"http://localhost:4001"}',
      },
    });
    const result = await runStartup(h.env);
    expect(result?.backendUrl).toBe('http://localhost:4001');
    const options = startedOptions(h);
    expect(options?.allowedTracingUrls).toEqual([
      { match: 'http://localhost:4001', propagatorTypes: ['tracecontext', 'datadog'] },
    ]);
  });

  it('R-1.1 with webview present monitoring is not started', async () => {
    const h = harness('http://localhost:3000/?webview', { storedLocal: STORED_IDENTITY });
    const result = await runStartup(h.env);
    expect(h.startMonitoring).not.toHaveBeenCalled();
    expect(result?.monitoringStarted).toBe(false);
  });

  it('R-4.14 the monitoring SDK receives the chosen user (anonymous on a low draw)', async () => {
    const h = harness('http://localhost:3000/', {
      storedLocal: STORED_IDENTITY,
      random: scriptedRandom(0.05),
    });
    await runStartup(h.env);
    expect(h.startMonitoring.mock.calls[0]?.[1]).toEqual({ kind: 'anonymous' });
  });

  it('R-2.7 ?rumdev starts monitoring as the demo user without touching the stored identity', async () => {
    const h = harness('http://localhost:3000/?rumdev', { storedLocal: STORED_IDENTITY });
    const result = await runStartup(h.env);
    expect(result?.monitoringUser.kind).toBe('demo');
    expect(h.local.getItem(IDENTITY_KEYS.id)).toBe('0badc0de');
  });

  it('R-4.7 R-7.6 /cart records instant_pay and keeps the variant for checkout', async () => {
    // Draws: 0.5 → not anonymous; 0.1 → instant_pay b.
    const h = harness('http://localhost:3000/cart', {
      storedLocal: STORED_IDENTITY,
      random: scriptedRandom(0.5, 0.1),
    });
    const result = await runStartup(h.env);
    expect(h.flags).toEqual([['instant_pay', 'b']]);
    expect(h.session.getItem(INSTANT_PAY_VARIANT_KEY)).toBe('b');
    expect(result?.experiments).toEqual([{ key: 'instant_pay', value: 'b' }]);
  });

  it('R-4.8 a product page records personal_recommendations, also in a webview', async () => {
    const h = harness('http://localhost:3000/department/tables/product/10?webview=1', {
      storedLocal: STORED_IDENTITY,
    });
    await runStartup(h.env);
    expect(h.flags).toEqual([['personal_recommendations', 1]]);
  });

  it('R-4.3 a load of /checkout forces the country selector off', async () => {
    const h = harness('http://localhost:3000/checkout?checkout_country_selector_first=true', {
      storedLocal: STORED_IDENTITY,
    });
    await runStartup(h.env);
    expect(h.local.getItem(FLAG_KEYS.checkoutCountrySelector)).toBe('false');
  });

  it('R-8.11 an unknown host uses the local profile and says so', async () => {
    const h = harness('https://shop.unknown.example.org/', { storedLocal: STORED_IDENTITY });
    const result = await runStartup(h.env);
    expect(result).toMatchObject({ profileKey: 'local', profileSource: 'fallback' });
    expect(h.warnings).toEqual([
      'Unknown host "shop.unknown.example.org": using the "local" deployment profile',
    ]);
  });

  it('R-4.14 a sample shopper that cannot load leaves the session anonymous, and start-up goes on', async () => {
    // Draws: entry 0.4 of the slice (its fetch fails); 0.9 → not anonymous; 0.5 → instant pay a.
    const h = harness('http://localhost:3000/cart', {
      random: scriptedRandom(0.4, 0.9, 0.5),
      loadSampleShopper: vi.fn(async () => {
        throw new Error('offline');
      }),
    });
    const result = await runStartup(h.env);
    expect(result).toMatchObject({ identity: null, monitoringUser: { kind: 'anonymous' } });
    expect(h.warnings).toEqual(['Failed to load the sample shopper list:']);
    expect(h.flags).toEqual([['instant_pay', 'a']]);
    expect(h.local.getItem(IDENTITY_KEYS.id)).toBeNull();
  });

  it('R-8.10 a monitoring start failure is reported and the experiments are still recorded', async () => {
    const h = harness('http://localhost:3000/cart', {
      storedLocal: STORED_IDENTITY,
      random: scriptedRandom(0.9, 0.7),
      startMonitoring: vi.fn(async () => {
        throw new Error('blocked');
      }),
    });
    const result = await runStartup(h.env);
    expect(result?.monitoringStarted).toBe(false);
    expect(h.warnings).toEqual(['Failed to start browser monitoring:']);
    expect(h.flags).toEqual([['instant_pay', 'c']]);
  });

  it('R-2.2 runs without an injected monitoring starter', async () => {
    const { startMonitoring: _unused, ...env } = harness('http://localhost:3000/', {
      storedLocal: STORED_IDENTITY,
    }).env;
    const result = await runStartup(env);
    expect(result?.monitoringStarted).toBe(false);
  });
});
