import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAFFIC_PROFILE, readTrafficProfile } from '@showroom/contracts/traffic';
import { loadProfile, PROFILES_DIR } from './profile-file.js';

describe('traffic profiles', () => {
  it('reads every shipped profile without a warning', () => {
    const files = fs.readdirSync(PROFILES_DIR).filter((file) => file.endsWith('.json'));
    expect(files.sort()).toEqual([
      'checkout-heavy.json',
      'experiment.json',
      'guarded-rollout.json',
      'lunch-spike.json',
      'steady.json',
    ]);
    for (const file of files) {
      const { profile, warnings } = loadProfile(path.join(PROFILES_DIR, file));
      expect(warnings, file).toEqual([]);
      expect(profile.name).toBe(file.replace(/\.json$/, ''));
      expect(
        Object.values(profile.journeys).some((weight) => weight > 0),
        file,
      ).toBe(true);
    }
  });

  it('skips one bad entry with a warning naming it and keeps the rest', () => {
    const { profile, warnings } = readTrafficProfile({
      name: 'mixed',
      seed: 5,
      devices: [
        { name: 'desktop', weight: 2, viewport: { width: 1200, height: 800 } },
        { name: 'tablet', weight: 1 },
      ],
      journeys: { browse: 2, teleport: 1, search: -1 },
      rate: { '9': 4, '25': 3 },
      locales: [{ locale: 'en-GB', weight: 1 }],
      colour: 'blue',
    });
    expect(profile.seed).toBe(5);
    expect(profile.devices.map((device) => device.name)).toEqual(['desktop']);
    expect(profile.journeys).toEqual({ browse: 2 });
    expect(profile.rate).toEqual({ '9': 4 });
    expect(profile.locales).toEqual([{ locale: 'en-GB', weight: 1 }]);
    expect(warnings).toHaveLength(5);
    expect(warnings.find((w) => w.includes('devices.1 "tablet"'))).toMatch(
      /^mixed: devices\.1 "tablet" skipped: /,
    );
    expect(
      warnings.some((w) => w.startsWith('mixed: journeys.teleport skipped: not a journey')),
    ).toBe(true);
    expect(warnings.some((w) => w.startsWith('mixed: journeys.search skipped'))).toBe(true);
    expect(warnings.some((w) => w.startsWith('mixed: rate.25 skipped: not an hour'))).toBe(true);
    expect(warnings.some((w) => w.startsWith('mixed: colour skipped: not a profile field'))).toBe(
      true,
    );
  });

  it('an experiment with a bad multiplier is skipped with a warning naming it', () => {
    const { profile, warnings } = readTrafficProfile(
      { name: 'x', experiment: { flag: 'instant_pay', variant: 'b', conversionMultiplier: 0 } },
      'x',
    );
    expect(profile.experiment).toBeNull();
    expect(warnings).toEqual([
      expect.stringMatching(/^x: experiment skipped: conversionMultiplier/),
    ]);
  });

  it('fills what a profile leaves out from the defaults, and keeps a list whose entries are all bad at its default', () => {
    const { profile, warnings } = readTrafficProfile({ networks: [{ name: 'x' }] }, 'tiny');
    expect(profile.name).toBe('tiny');
    expect(profile.networks).toEqual(DEFAULT_TRAFFIC_PROFILE.networks);
    expect(profile.concurrency).toBe(DEFAULT_TRAFFIC_PROFILE.concurrency);
    expect(warnings).toEqual([expect.stringMatching(/^tiny: networks\.0 "x" skipped: /)]);
  });

  it('refuses think times whose maximum is below their minimum, and anything but an object', () => {
    const { profile, warnings } = readTrafficProfile(
      { thinkTime: { minMs: 900, maxMs: 100 } },
      'odd',
    );
    expect(profile.thinkTime).toEqual(DEFAULT_TRAFFIC_PROFILE.thinkTime);
    expect(warnings).toEqual(['odd: thinkTime skipped: maxMs is below minMs']);
    expect(() => readTrafficProfile([1, 2], 'list')).toThrow(
      'list: a traffic profile is a JSON object',
    );
  });
});
