import { describe, expect, it } from 'vitest';
import rawProfiles from '../config/deployment-profiles.json';
import {
  backendAddress,
  chooseProfile,
  DeploymentProfileError,
  isProfileAddress,
  intakeProxy,
  persistProfileChoice,
  predictProfile,
  profileIndex,
  profilePath,
  readBackendOverride,
  readProfileChoice,
  resolveProfileAddresses,
  type DeploymentProfile,
} from './deployment-profiles';
import {
  applyEnvProfileOverrides,
  loadDefaultProfiles,
  validateProfile,
  validateProfiles,
} from './profile-validation';
import { BACKEND_URL_OVERRIDE_KEY, RUM_CONFIG_HOST_KEY, RUM_CONFIG_KEY_KEY } from './storage-keys';
import { createMemoryStorage } from './test-support/memory-storage';
import { rawProfile } from './test-support/raw-profile';

const profiles = loadDefaultProfiles();
const index = profileIndex(profiles);
const local = profiles['local'] as DeploymentProfile;
/** The origin a page of the shop is opened on in these tests. */
const ORIGIN = 'http://localhost:3000';

const SPEC_RECORD_FIELDS = [
  'orgName',
  'orgId',
  'clientToken',
  'applicationId',
  'service',
  'env',
  'ship',
  'host',
  'backendUrl',
  'enableTracing',
  'allowUntrustedEvents',
  'allowedTracingUrls',
  'site',
  'flagsUrl',
  'intakeUrl',
  'sessionSampleRate',
  'sessionReplaySampleRate',
  'telemetrySampleRate',
];

/** Profiles that reach the api through the page's own origin (`/api`). */
const ON_PAGE_ORIGIN = new Set(['local', 'local-ofrep']);

describe('the deployment profiles file', () => {
  it('R-3.11 holds about 20 profiles and every one validates', () => {
    const count = Object.keys(profiles).length;
    expect(count).toBeGreaterThanOrEqual(18);
    expect(count).toBeLessThanOrEqual(22);
  });

  it('R-3.10 every profile in the file spells out every field of the record', () => {
    for (const [key, profile] of Object.entries(rawProfiles)) {
      const missing = SPEC_RECORD_FIELDS.filter((field) => !(field in profile));
      expect({ key, missing }).toEqual({ key, missing: [] });
    }
  });

  it('R-3.11 has the spec ship parameters and hosts', () => {
    const ships = Object.values(profiles).map((p) => p.ship);
    for (const ship of [
      'aksdev',
      'ap2',
      'awsdpn',
      'azdpn',
      'burnsbox',
      'dda',
      'ddog',
      'dpn',
      'gcpdpn',
      'hackathon1',
    ]) {
      expect(ships).toContain(ship);
    }
    for (const key of ['dev', 'eu', 'fe-test', 'local', 'main', 'us3', 'us5']) {
      expect(profiles[key]?.host).toEqual(expect.any(String));
    }
  });

  it('R-3.11 backends: an api host in production, dev-api or gke-api hosts in dev', () => {
    for (const [key, profile] of Object.entries(profiles)) {
      if (ON_PAGE_ORIGIN.has(key)) continue; // the page's own origin (below)
      const hostname = new URL(profile.backendUrl).hostname;
      const expected = profile.env === 'prod' ? /^api\./ : /^(dev-api|gke-api)\./;
      expect({ key, hostname }).toEqual({ key, hostname: expect.stringMatching(expected) });
    }
  });

  it('R-3.10 tokens, application ids and org ids are obvious placeholders', () => {
    for (const profile of Object.values(profiles)) {
      expect(profile.clientToken).toMatch(/^pub0{20,}\d+$/);
      expect(profile.applicationId).toMatch(/^00000000-0000-0000-0000-0{8}\d{4}$/);
      expect(profile.orgId).toMatch(/^0+\d+$/);
    }
  });

  it('R-8.11 the local profile reaches the api through the page origin, under any host', () => {
    expect(local).toMatchObject({
      host: 'localhost:3000',
      hostAliases: ['127.0.0.1:3000'],
      backendUrl: '/api',
      flagsUrl: '/api/flags/precompute-assignments',
      intakeUrl: '/api/intake',
      site: 'datadoghq.com',
      env: 'dev',
    });
  });

  it('the local-ofrep profile is local with the OFREP web provider against the api (ship=ofrep)', () => {
    const ofrep = profiles['local-ofrep'];
    expect(ofrep).toEqual({
      ...local,
      orgName: 'Showroom Local (OFREP)',
      ship: 'ofrep',
      host: null,
      hostAliases: [],
      flagProvider: 'ofrep',
      flagsUrl: '/api',
    });
    expect(local?.flagProvider).toBe('datadog');
  });

  it('R-3.11 every other profile names a separate backend and flag service by absolute URL', () => {
    for (const [key, profile] of Object.entries(profiles)) {
      if (ON_PAGE_ORIGIN.has(key)) continue;
      const addresses = [profile.backendUrl, profile.flagsUrl, profile.intakeUrl];
      for (const address of addresses.filter((value) => value !== null)) {
        expect({ key, address }).toEqual({ key, address: expect.stringMatching(/^https:\/\//) });
      }
    }
  });
});

describe('validateProfile', () => {
  it.each(['applicationId', 'clientToken', 'site', 'service', 'env'])(
    'R-3.12 R-5.2 a profile without %s is refused, naming the profile and the field',
    (field) => {
      expect(() => validateProfile('ap2', rawProfile({ [field]: undefined }))).toThrow(
        new DeploymentProfileError(
          `Deployment profile "ap2": field "${field}" is required`,
          'ap2',
          field,
        ),
      );
      expect(() => validateProfile('ap2', rawProfile({ [field]: '' }))).toThrow(
        `field "${field}" is required`,
      );
    },
  );

  it('R-3.10 env must be dev or prod', () => {
    expect(() => validateProfile('x', rawProfile({ env: 'staging' }))).toThrow(
      'Deployment profile "x": field "env" must be "dev" or "prod"',
    );
  });

  it.each([-1, 100.5, 101, Number.NaN, '50'])('R-5.2 a sample rate of %s is refused', (rate) => {
    expect(() => validateProfile('x', rawProfile({ sessionSampleRate: rate }))).toThrow(
      'Deployment profile "x": field "sessionSampleRate" must be a number from 0 to 100',
    );
  });

  it('R-5.2 sample rates 0 and 100 are accepted', () => {
    const profile = validateProfile(
      'x',
      rawProfile({ telemetrySampleRate: 0, sessionReplaySampleRate: 100 }),
    );
    expect(profile).toMatchObject({ telemetrySampleRate: 0, sessionReplaySampleRate: 100 });
  });

  it('R-3.10 addresses are absolute http(s) URLs or paths on the page origin', () => {
    const paths = validateProfile(
      'x',
      rawProfile({
        backendUrl: '/api',
        flagsUrl: '/api/flags/precompute-assignments',
        intakeUrl: '/api/intake',
        allowedTracingUrls: ['/payments', 'https://payments.example.com'],
      }),
    );
    expect(paths).toMatchObject({
      backendUrl: '/api',
      flagsUrl: '/api/flags/precompute-assignments',
      intakeUrl: '/api/intake',
      allowedTracingUrls: ['/payments', 'https://payments.example.com'],
    });
    for (const field of ['backendUrl', 'flagsUrl', 'intakeUrl']) {
      for (const bad of [
        'api',
        'ftp://a.example.com',
        '//evil.example.com/api',
        '/\\evil.example.com',
      ]) {
        expect(() => validateProfile('x', rawProfile({ [field]: bad }))).toThrow(
          `Deployment profile "x": field "${field}" must be an absolute http(s) URL or a path starting with "/"`,
        );
      }
    }
    expect(() => validateProfile('x', rawProfile({ allowedTracingUrls: ['ftp://a'] }))).toThrow(
      'field "allowedTracingUrls"',
    );
  });

  it('R-3.10 the intake proxy may not carry a query string, absolute or as a path', () => {
    for (const intakeUrl of ['https://a.example.com/i?x=1', '/api/intake?x=1', '/api/intake#x']) {
      expect(() => validateProfile('x', rawProfile({ intakeUrl }))).toThrow(
        'field "intakeUrl" must not have a query string',
      );
    }
  });

  it('R-3.12 optional fields get defaults: no tracing, no extra URLs, no proxy', () => {
    expect(validateProfile('mine', rawProfile({ host: 'Shop.Example.COM' }))).toEqual({
      ...rawProfile(),
      orgName: 'mine',
      orgId: null,
      ship: null,
      host: 'shop.example.com',
      hostAliases: [],
      enableTracing: false,
      allowUntrustedEvents: false,
      allowedTracingUrls: null,
      flagProvider: 'datadog',
      flagsUrl: null,
      intakeUrl: null,
    });
  });

  it('a flag provider other than datadog or ofrep is refused, naming the field', () => {
    expect(() => validateProfile('x', rawProfile({ flagProvider: 'flagd' }))).toThrow(
      'field "flagProvider" must be one of datadog, ofrep',
    );
    expect(validateProfile('x', rawProfile({ flagProvider: 'ofrep' })).flagProvider).toBe('ofrep');
  });
});

describe('validateProfiles', () => {
  it('R-8.11 a local profile is required as the fallback', () => {
    expect(() => validateProfiles({ ap2: rawProfile() })).toThrow('a "local" profile is required');
  });

  it('R-3.11 no two profiles may claim the same ship parameter or host', () => {
    expect(() =>
      validateProfiles({
        local: rawProfile(),
        a: rawProfile({ ship: 'x' }),
        b: rawProfile({ ship: 'x' }),
      }),
    ).toThrow('Deployment profile "b": field "ship" value "x" is already used by profile "a"');
    expect(() =>
      validateProfiles({
        local: rawProfile({ host: 'h:1' }),
        b: rawProfile({ hostAliases: ['h:1'] }),
      }),
    ).toThrow('field "host" value "h:1" is already used by profile "local"');
  });
});

describe('chooseProfile', () => {
  const choose = (input: {
    ship?: string | null;
    host?: string;
    storedKey?: string | null;
    storedHost?: string | null;
  }) =>
    chooseProfile({
      ship: input.ship ?? null,
      host: input.host ?? 'localhost:3000',
      storedKey: input.storedKey ?? null,
      storedHost: input.storedHost ?? null,
      index,
    });

  it('R-4.15 a ship parameter naming a profile wins over host and storage', () => {
    expect(choose({ ship: 'ap2', host: 'eu.showroom.example.com', storedKey: 'us3' })).toEqual({
      key: 'ap2',
      source: 'ship',
    });
  });

  it('R-4.15 an unknown ship parameter is ignored', () => {
    expect(choose({ ship: 'nope', host: 'eu.showroom.example.com' })).toEqual({
      key: 'eu',
      source: 'host',
    });
  });

  it('R-4.15 the host profile wins over the stored key when the host changed', () => {
    expect(
      choose({ host: 'us5.showroom.example.com', storedKey: 'ap2', storedHost: 'localhost:3000' }),
    ).toEqual({ key: 'us5', source: 'host' });
  });

  it('R-4.15 on the same host the stored key is kept (a ship choice sticks)', () => {
    expect(
      choose({ host: 'localhost:3000', storedKey: 'ap2', storedHost: 'localhost:3000' }),
    ).toEqual({
      key: 'ap2',
      source: 'stored',
    });
  });

  it('R-4.15 a stored key that no longer names a profile falls back to the host', () => {
    expect(
      choose({ host: '127.0.0.1:3000', storedKey: 'gone', storedHost: '127.0.0.1:3000' }),
    ).toEqual({
      key: 'local',
      source: 'host',
    });
  });

  it('R-4.15 hosts match case-insensitively, including aliases', () => {
    expect(choose({ host: 'WWW.Showroom.Example.com' })).toEqual({ key: 'main', source: 'host' });
  });

  it('R-8.11 an unknown host keeps a stored key, and with none falls back to local', () => {
    expect(
      choose({ host: 'unknown.example.org', storedKey: 'dda', storedHost: 'localhost:3000' }),
    ).toEqual({
      key: 'dda',
      source: 'stored',
    });
    expect(choose({ host: 'unknown.example.org' })).toEqual({ key: 'local', source: 'fallback' });
  });

  it('R-4.15 a stored key that names no profile, even an inherited name, is not taken', () => {
    expect(
      choose({ host: 'unknown.example.org', storedKey: 'toString', storedHost: 'other:1' }),
    ).toEqual({ key: 'local', source: 'fallback' });
  });

  it('R-4.15 the chosen key and host are persisted and read back', () => {
    const storage = createMemoryStorage();
    persistProfileChoice(storage, 'ap2', 'LocalHost:3000');
    expect(storage.snapshot()).toEqual({
      [RUM_CONFIG_KEY_KEY]: 'ap2',
      [RUM_CONFIG_HOST_KEY]: 'localhost:3000',
    });
    expect(readProfileChoice(storage)).toEqual({ storedKey: 'ap2', storedHost: 'localhost:3000' });
  });
});

describe('the profile index and the predicted profile', () => {
  it('R-4.15 the index holds every key with its ship parameter and hosts, nothing else', () => {
    expect(Object.keys(index)).toEqual(Object.keys(profiles));
    expect(index['local']).toEqual({ hosts: ['localhost:3000', '127.0.0.1:3000'] });
    expect(index['ap2']).toEqual({ ship: 'ap2' });
    expect(index['main']).toEqual({ hosts: ['showroom.example.com', 'www.showroom.example.com'] });
    expect(JSON.stringify(index)).not.toContain('clientToken');
  });

  it('R-4.15 chooses from the index as it did from the profiles', () => {
    for (const input of [
      { ship: 'AP2', host: 'eu.showroom.example.com' },
      { ship: null, host: 'www.showroom.example.com' },
      { ship: null, host: '127.0.0.1:3000' },
      { ship: 'nope', host: 'shop.test:3000' },
    ]) {
      const viaIndex = chooseProfile({ ...input, storedKey: null, storedHost: null, index });
      expect(predictProfile(profiles, index, input)).toEqual({
        key: viaIndex.key,
        profile: profiles[viaIndex.key],
      });
    }
  });

  it('R-4.15 the server predicts the ship profile, else the host profile, else local', () => {
    expect(predictProfile(profiles, index, { ship: 'ap2', host: 'localhost:3000' }).key).toBe(
      'ap2',
    );
    expect(
      predictProfile(profiles, index, { ship: null, host: 'us5.showroom.example.com' }).key,
    ).toBe('us5');
    expect(predictProfile(profiles, index, { ship: null, host: 'shop.test:3000' }).key).toBe(
      'local',
    );
  });

  it('one profile is fetched from /profiles/<key>.json', () => {
    expect(profilePath('fe-test')).toBe('/profiles/fe-test.json');
    expect(profilePath('a/b')).toBe('/profiles/a%2Fb.json');
  });
});

describe('addresses on the page origin', () => {
  it('paths starting with "/" and absolute http(s) URLs are addresses', () => {
    expect(isProfileAddress('/api')).toBe(true);
    expect(isProfileAddress('https://api.example.com/x')).toBe(true);
    for (const bad of ['api', '', '//evil.example.com', '/\\evil.example.com', 'javascript:x']) {
      expect({ bad, ok: isProfileAddress(bad) }).toEqual({ bad, ok: false });
    }
  });

  it('paths resolve against the page origin; absolute addresses stay as they are', () => {
    const resolved = resolveProfileAddresses(
      { ...local, allowedTracingUrls: ['/payments', 'https://payments.example.com'] },
      'http://shop.test:4000',
    );
    expect(resolved).toMatchObject({
      backendUrl: 'http://shop.test:4000/api',
      flagsUrl: 'http://shop.test:4000/api/flags/precompute-assignments',
      intakeUrl: 'http://shop.test:4000/api/intake',
      allowedTracingUrls: ['http://shop.test:4000/payments', 'https://payments.example.com'],
    });
    const ap2 = profiles['ap2'] as DeploymentProfile;
    expect(resolveProfileAddresses(ap2, 'http://shop.test:4000')).toEqual(ap2);
    expect(
      resolveProfileAddresses({ ...local, flagsUrl: null, intakeUrl: null }, ORIGIN),
    ).toMatchObject({ flagsUrl: null, intakeUrl: null, allowedTracingUrls: null });
  });
});

describe('backend address', () => {
  it('R-7.9 the profile backend is used without an override, absolute, with no trailing slash', () => {
    expect(backendAddress(local, null, ORIGIN)).toBe('http://localhost:3000/api');
    expect(backendAddress(local, null, 'https://shop.test')).toBe('https://shop.test/api');
    expect(backendAddress({ ...local, backendUrl: 'http://localhost:3001/' }, null, ORIGIN)).toBe(
      'http://localhost:3001',
    );
  });

  it('R-7.9 a per-key override from local storage wins', () => {
    const storage = createMemoryStorage({
      [BACKEND_URL_OVERRIDE_KEY]:
        '{"local":"http://localhost:4001/","ap2":"https://api.other.example.com","us3":"/other-api"}',
    });
    expect(backendAddress(local, readBackendOverride(storage, 'local'), ORIGIN)).toBe(
      'http://localhost:4001',
    );
    expect(readBackendOverride(storage, 'ap2')).toBe('https://api.other.example.com');
    expect(readBackendOverride(storage, 'us3')).toBe('/other-api');
    expect(backendAddress(local, '/other-api', ORIGIN)).toBe('http://localhost:3000/other-api');
    expect(readBackendOverride(storage, 'eu')).toBeNull();
  });

  it('R-7.9 a plain address overrides every profile; unusable values are ignored', () => {
    const plain = createMemoryStorage({ [BACKEND_URL_OVERRIDE_KEY]: 'http://10.0.0.5:3001' });
    expect(readBackendOverride(plain, 'anything')).toBe('http://10.0.0.5:3001');
    for (const bad of [
      '{not json',
      'relative',
      '{"local":"relative"}',
      '{"local":"//evil.example.com"}',
      'javascript:alert(1)',
    ]) {
      const storage = createMemoryStorage({ [BACKEND_URL_OVERRIDE_KEY]: bad });
      expect(readBackendOverride(storage, 'local')).toBeNull();
    }
    expect(backendAddress(local, 'not a url', ORIGIN)).toBe('http://localhost:3000/api');
  });
});

describe('applyEnvProfileOverrides', () => {
  it('R-3.11 without SHOWROOM_PROFILES_JSON the profiles are unchanged', () => {
    expect(applyEnvProfileOverrides(profiles, {})).toBe(profiles);
    expect(applyEnvProfileOverrides(profiles, { SHOWROOM_PROFILES_JSON: '  ' })).toBe(profiles);
  });

  it('R-3.11 merges fields into an existing profile, adds new ones and removes null ones', () => {
    const result = applyEnvProfileOverrides(profiles, {
      SHOWROOM_PROFILES_JSON: JSON.stringify({
        local: { backendUrl: 'http://localhost:4001', sessionSampleRate: 50 },
        mine: rawProfile({ ship: 'Mine' }),
        hackathon2: null,
      }),
    });
    expect(result['local']).toEqual({
      ...local,
      backendUrl: 'http://localhost:4001',
      sessionSampleRate: 50,
    });
    expect(result['hackathon2']).toBeUndefined();
    expect(
      chooseProfile({
        ship: 'mine',
        host: 'localhost:3000',
        storedKey: null,
        storedHost: null,
        index: profileIndex(result),
      }),
    ).toEqual({ key: 'mine', source: 'ship' });
    expect(profiles['local']?.backendUrl).toBe('/api');
  });

  it('R-5.2 an override that breaks a profile is refused with the profile and field', () => {
    expect(() =>
      applyEnvProfileOverrides(profiles, {
        SHOWROOM_PROFILES_JSON: '{"ap2":{"clientToken":null}}',
      }),
    ).toThrow('Deployment profile "ap2": field "clientToken" is required');
    expect(() =>
      applyEnvProfileOverrides(profiles, {
        SHOWROOM_PROFILES_JSON: '{"new":{"site":"datadoghq.eu"}}',
      }),
    ).toThrow('Deployment profile "new": field "applicationId" is required');
  });

  it('R-5.2 malformed SHOWROOM_PROFILES_JSON is refused, naming the variable', () => {
    expect(() => applyEnvProfileOverrides(profiles, { SHOWROOM_PROFILES_JSON: '{' })).toThrow(
      /^SHOWROOM_PROFILES_JSON is not valid JSON/,
    );
    expect(() => applyEnvProfileOverrides(profiles, { SHOWROOM_PROFILES_JSON: '[]' })).toThrow(
      'SHOWROOM_PROFILES_JSON must be a JSON object',
    );
    expect(() => applyEnvProfileOverrides(profiles, { SHOWROOM_PROFILES_JSON: '{"a":1}' })).toThrow(
      'profile "a" must be an object or null',
    );
  });
});

describe('intakeProxy', () => {
  it('builds the intake proxy URL as the SDKs do from a proxy URL', () => {
    const absolute = intakeProxy('https://api.example.com/intake');
    expect(absolute({ path: '/api/v2/replay', parameters: '' })).toBe(
      'https://api.example.com/intake?ddforward=%2Fapi%2Fv2%2Freplay',
    );
    expect(absolute({ path: '/api/v2/exposures', parameters: 'a=b c' })).toBe(
      `https://api.example.com/intake?ddforward=${encodeURIComponent('/api/v2/exposures?a=b c')}`,
    );
  });
});
