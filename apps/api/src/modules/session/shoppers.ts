import fs from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../../config.js';

/** A sample shopper record (spec §3 "Sample shopper record"). */
export interface SampleShopper {
  id: string;
  name: string;
  email: string;
  team: string;
  /** `null` only for the fixed demo user. */
  useDiscount: boolean | null;
  useNewCheckoutFlow: boolean;
}

export type ShopperListName = 'standard' | 'loyalty' | 'demo';

export interface ShopperLists {
  standard: SampleShopper[];
  loyalty: SampleShopper[];
}

/**
 * The fixed demo user the web app uses with `?rumdev` (spec §3; mirrors DEMO_USER in
 * apps/web/app/startup/sample-identity.ts). It is in neither list but is a known identity.
 */
export const DEMO_SHOPPER: Readonly<SampleShopper> = Object.freeze({
  id: 'dec0de01',
  name: 'demo.user',
  email: 'demo.user@example.com',
  team: 'Dev',
  useDiscount: null,
  useNewCheckoutFlow: false,
});

export const SHOPPER_LIST_FILES = {
  standard: path.join(REPO_ROOT, 'data', 'shoppers', 'standard.json'),
  loyalty: path.join(REPO_ROOT, 'data', 'shoppers', 'loyalty.json'),
} as const;

export interface FoundShopper {
  shopper: SampleShopper;
  list: ShopperListName;
}

/** Looks sample shoppers up by id: the server's copy of who may get a discount. */
export interface ShopperDirectory {
  find(id: string): Promise<FoundShopper | undefined>;
}

/**
 * A directory over lists loaded on first use. A load that found both lists is kept for the
 * life of the process (the files are read-only data); an incomplete one is retried next time.
 */
export function createShopperDirectory(
  load: () => Promise<ShopperLists> = () => readShopperLists(),
): ShopperDirectory {
  let index: Map<string, FoundShopper> | undefined;
  return {
    async find(id) {
      if (id === DEMO_SHOPPER.id) return { shopper: DEMO_SHOPPER, list: 'demo' };
      if (index) return index.get(id);
      const lists = await load();
      const built = new Map<string, FoundShopper>();
      for (const list of ['standard', 'loyalty'] as const) {
        for (const shopper of lists[list]) {
          if (!built.has(shopper.id)) built.set(shopper.id, { shopper, list });
        }
      }
      if (lists.standard.length > 0 && lists.loyalty.length > 0) index = built;
      return built.get(id);
    },
  };
}

/** Reads both lists; a missing file reads as an empty list, a malformed record is skipped. */
export async function readShopperLists(files = SHOPPER_LIST_FILES): Promise<ShopperLists> {
  const [standard, loyalty] = await Promise.all([
    readList(files.standard),
    readList(files.loyalty),
  ]);
  return { standard, loyalty };
}

async function readList(file: string): Promise<SampleShopper[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error(`${file} must hold a JSON array of shoppers`);
  return parsed.filter(isSampleShopper);
}

function isSampleShopper(value: unknown): value is SampleShopper {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.id === 'string' &&
    typeof record.name === 'string' &&
    typeof record.email === 'string' &&
    typeof record.team === 'string' &&
    (typeof record.useDiscount === 'boolean' || record.useDiscount === null) &&
    typeof record.useNewCheckoutFlow === 'boolean'
  );
}
