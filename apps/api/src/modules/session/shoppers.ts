import fs from 'node:fs/promises';
import path from 'node:path';
import {
  DEMO_USER,
  isSampleShopper,
  type SampleShopper,
  type ShopperListName,
} from '@showroom/contracts/shopper';
import { REPO_ROOT } from '../../config.js';

export interface ShopperLists {
  standard: SampleShopper[];
  loyalty: SampleShopper[];
}

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
      if (id === DEMO_USER.id) return { shopper: DEMO_USER, list: 'demo' };
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
