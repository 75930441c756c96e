// Deterministic generator of the two sample shopper lists (R-3.4 … ). `scripts/generate-shoppers.ts` writes its output to data/shoppers/*.json;
// the unit tests regenerate it to prove the committed files match.
import { DAY_SLICE_COUNT } from './storage-keys';
import { DEMO_USER, type SampleShopper } from '@showroom/contracts/shopper';
import { mulberry32 as sharedMulberry32 } from '@showroom/contracts/random';
import type { RandomSource } from './sample-identity';

export const SHOPPER_SEED = 20_260_101;
/** Seven day slices of 50. */
export const SHOPPERS_PER_SLICE = 50;
export const SHOPPERS_PER_LIST = SHOPPERS_PER_SLICE * DAY_SLICE_COUNT;
/** Seven of the spec's ten teams, the same seven in both lists. */
export const SHOPPER_TEAMS = [
  'accounting',
  'design',
  'engineering',
  'logistics',
  'marketing',
  'sales',
  'support',
] as const;
export const SHOPPER_EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'] as const;
/** Loyalty list: 40 of every 50 get the discount (80 %), so both lists together give 40 %. */
const LOYALTY_DISCOUNTS_PER_SLICE = 40;
/** New checkout flow: 8 in the first four slices, 7 in the last three = 53 of 350 (15.1 %). */
const newCheckoutFlowInSlice = (slice: number): number => (slice < 4 ? 8 : 7);

// prettier-ignore
const FIRST_NAMES = [
  'Aaliyah', 'Adrian', 'Aiko', 'Alba', 'Amara', 'Anders', 'Ana Sofia', 'Arjun', 'Astrid', 'Beatriz',
  'Bruno', 'Camille', 'Carlos', 'Chen', 'Chiara', 'Dario', 'Daniela', 'Divya', 'Elif', 'Elena',
  'Emeka', 'Emil', 'Farah', 'Felix', 'Freya', 'Gabriel', 'Greta', 'Hana', 'Hugo', 'Ines',
  'Isaac', 'Ivana', 'Jamal', 'Jana', 'Jean Luc', 'Joon', 'Kai', 'Kamala', 'Kofi', 'Lars',
  'Layla', 'Leon', 'Lucia', 'Mai', 'Malik', 'Marta', 'Mary Ann', 'Mateo', 'Mei', 'Milan',
  'Nadia', 'Nia', 'Noah', 'Noor', 'Olga', 'Omar', 'Paula', 'Pedro', 'Priya', 'Quinn',
  'Rafael', 'Rania', 'Ravi', 'Rosa', 'Sami', 'Sara', 'Sven', 'Tariq', 'Tomas', 'Uma',
  'Vera', 'Victor', 'Wei', 'Yara', 'Yusuf', 'Zara', 'Zoltan', 'Ingrid', 'Oskar', 'Leila',
] as const;

// prettier-ignore
const LAST_NAMES = [
  'Abbott', 'Adeyemi', 'Alvarez', 'Andersen', 'Bauer', 'Becker', 'Bianchi', 'Brennan', 'Castillo',
  'Chowdhury', 'Costa', 'Dahl', 'De Luca', 'Dubois', 'Eriksen', 'Ferreira', 'Fischer', 'Garcia',
  'Gupta', 'Haddad', 'Hansen', 'Horvat', 'Ibrahim', 'Ito', 'Jansen', 'Kaur', 'Kim',
  'Kowalski', 'Larsen', 'Lindqvist', 'Lopez', 'Mahlangu', 'Marino', 'Meyer', 'Moreau', 'Nakamura',
  'Novak', 'Nguyen', 'Okafor', 'Olsen', 'Osei', 'Park', 'Petrov', 'Popescu', 'Quist',
  'Ramos', 'Rossi', 'Sato', 'Schmidt', 'Silva', 'Singh', 'Sorensen', 'Tanaka', 'Torres',
  'Van Dam', 'Varga', 'Wagner', 'Weber', 'Yamamoto', 'Yilmaz', 'Zhang', 'Ziegler', 'Mensah',
  'Haugen', 'Rahman',
] as const;

/** mulberry32 (packages/contracts/src/random.ts): same sequence in every JS engine. */
export function mulberry32(seed: number): RandomSource {
  return sharedMulberry32(seed);
}

export interface GeneratedShopperLists {
  standard: SampleShopper[];
  loyalty: SampleShopper[];
}

/** Both lists from one seed; ids, names and e-mails are unique over both lists. */
export function generateShoppers(seed: number = SHOPPER_SEED): GeneratedShopperLists {
  const random = mulberry32(seed);
  const used = { ids: new Set<string>([DEMO_USER.id]), names: new Set<string>() };
  return {
    standard: generateList(random, used, 0),
    loyalty: generateList(random, used, LOYALTY_DISCOUNTS_PER_SLICE),
  };
}

/** The committed file format: a pretty-printed JSON array and a final newline. */
export function serialiseShopperList(list: readonly SampleShopper[]): string {
  return `${JSON.stringify(list, null, 2)}\n`;
}

function generateList(
  random: RandomSource,
  used: { ids: Set<string>; names: Set<string> },
  discountsPerSlice: number,
): SampleShopper[] {
  const list: SampleShopper[] = [];
  for (let slice = 0; slice < DAY_SLICE_COUNT; slice += 1) {
    // Each slice (one UTC weekday) gets the same mix: teams dealt round-robin in a shuffled
    // order, and exact counts of discount and new-checkout-flow shoppers at shuffled places.
    const teams = shuffle([...SHOPPER_TEAMS], random);
    const discount = shuffle(flags(discountsPerSlice), random);
    const newFlow = shuffle(flags(newCheckoutFlowInSlice(slice)), random);
    for (let i = 0; i < SHOPPERS_PER_SLICE; i += 1) {
      const name = uniqueName(random, used.names);
      list.push({
        id: uniqueId(random, used.ids),
        name,
        email: `${emailLocalPart(name)}@${pick(SHOPPER_EMAIL_DOMAINS, random)}`,
        team: teams[i % teams.length] ?? SHOPPER_TEAMS[0],
        useDiscount: discount[i] ?? false,
        useNewCheckoutFlow: newFlow[i] ?? false,
      });
    }
  }
  return list;
}

function flags(trueCount: number): boolean[] {
  return Array.from({ length: SHOPPERS_PER_SLICE }, (_, i) => i < trueCount);
}

function uniqueId(random: RandomSource, used: Set<string>): string {
  for (;;) {
    const id = Math.floor(random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}

function uniqueName(random: RandomSource, used: Set<string>): string {
  for (;;) {
    const name = `${pick(FIRST_NAMES, random)} ${pick(LAST_NAMES, random)}`;
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
  }
}

/** "Ana Sofia De Luca" → "ana.sofia.de.luca" (ASCII names only, by construction). */
function emailLocalPart(name: string): string {
  return name.toLowerCase().replace(/[^a-z]+/g, '.');
}

function pick<T>(items: readonly T[], random: RandomSource): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** Fisher–Yates, in place. */
function shuffle<T>(items: T[], random: RandomSource): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
