import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SampleShopper, ShopperListKind } from '@showroom/contracts/shopper';
import {
  generateShoppers,
  serialiseShopperList,
  SHOPPER_EMAIL_DOMAINS,
  SHOPPER_SEED,
  SHOPPERS_PER_SLICE,
} from './shopper-generator';

const SPEC_TEAMS = [
  'accounting',
  'logistics',
  'marketing',
  'support',
  'tools',
  'engineering',
  'human resources',
  'sales',
  'product',
  'design',
];

/** The committed lists at the repository root, data/shoppers/{kind}.json. */
function committedText(kind: ShopperListKind): string {
  return readFileSync(new URL(`../../../../data/shoppers/${kind}.json`, import.meta.url), 'utf8');
}
const lists: Record<ShopperListKind, SampleShopper[]> = {
  standard: JSON.parse(committedText('standard')) as SampleShopper[],
  loyalty: JSON.parse(committedText('loyalty')) as SampleShopper[],
};
const everyone = [...lists.standard, ...lists.loyalty];
const share = (list: SampleShopper[], test: (s: SampleShopper) => boolean) =>
  list.filter(test).length / list.length;

describe('the committed sample shopper lists', () => {
  it('R-3.6 R-9.3 each list holds 350 shoppers: seven day slices of 50', () => {
    expect(lists.standard).toHaveLength(7 * SHOPPERS_PER_SLICE);
    expect(lists.loyalty).toHaveLength(7 * SHOPPERS_PER_SLICE);
  });

  it('R-3.4 every record has exactly the six fields, with their types', () => {
    for (const shopper of everyone) {
      expect(Object.keys(shopper)).toEqual([
        'id',
        'name',
        'email',
        'team',
        'useDiscount',
        'useNewCheckoutFlow',
      ]);
      expect(shopper).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}$/),
        name: expect.stringMatching(/^\S+( \S+)+$/),
        email: expect.stringMatching(/^[a-z.]+@example\.(com|org|net)$/),
        team: expect.any(String),
        useDiscount: expect.any(Boolean),
        useNewCheckoutFlow: expect.any(Boolean),
      });
    }
  });

  it('R-3.4 ids are short hex, unique over both lists; e-mails are unique and on example domains', () => {
    expect(new Set(everyone.map((s) => s.id)).size).toBe(everyone.length);
    expect(new Set(everyone.map((s) => s.email)).size).toBe(everyone.length);
    const domains = new Set(everyone.map((s) => s.email.split('@')[1]));
    expect(
      [...domains].every((d) => (SHOPPER_EMAIL_DOMAINS as readonly string[]).includes(d ?? '')),
    ).toBe(true);
  });

  it('R-3.5 R-3.6 each list spans exactly seven of the spec teams', () => {
    for (const list of [lists.standard, lists.loyalty]) {
      const teams = new Set(list.map((s) => s.team));
      expect(teams.size).toBe(7);
      expect([...teams].filter((t) => !SPEC_TEAMS.includes(t))).toEqual([]);
    }
  });

  it('R-4.12 every day slice has all seven teams', () => {
    for (const list of [lists.standard, lists.loyalty]) {
      for (let day = 0; day < 7; day += 1) {
        const slice = list.slice(day * SHOPPERS_PER_SLICE, (day + 1) * SHOPPERS_PER_SLICE);
        expect(new Set(slice.map((s) => s.team)).size).toBe(7);
      }
    }
  });

  it('R-3.6 nobody in the standard list has useDiscount; about 80 % in the loyalty list', () => {
    expect(lists.standard.filter((s) => s.useDiscount)).toEqual([]);
    expect(Math.abs(share(lists.loyalty, (s) => s.useDiscount === true) - 0.8)).toBeLessThanOrEqual(
      0.05,
    );
  });

  it('R-3.6 overall about 40 % useDiscount and 15 % useNewCheckoutFlow, a minority in each list', () => {
    expect(Math.abs(share(everyone, (s) => s.useDiscount === true) - 0.4)).toBeLessThanOrEqual(
      0.05,
    );
    expect(Math.abs(share(everyone, (s) => s.useNewCheckoutFlow) - 0.15)).toBeLessThanOrEqual(0.05);
    for (const list of [lists.standard, lists.loyalty]) {
      expect(Math.abs(share(list, (s) => s.useNewCheckoutFlow) - 0.15)).toBeLessThanOrEqual(0.05);
    }
  });

  it('R-3.6 the committed files are exactly what the generator writes from its seed', () => {
    const generated = generateShoppers(SHOPPER_SEED);
    expect(committedText('standard')).toBe(serialiseShopperList(generated.standard));
    expect(committedText('loyalty')).toBe(serialiseShopperList(generated.loyalty));
  });

  it('R-3.6 generation is deterministic per seed and differs between seeds', () => {
    expect(generateShoppers(42)).toEqual(generateShoppers(42));
    expect(generateShoppers(42).standard[0]?.id).not.toBe(generateShoppers(43).standard[0]?.id);
  });
});
