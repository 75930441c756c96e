import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Page } from '@playwright/test';
import type { SampleShopper } from '@showroom/contracts/shopper';

export type Shopper = SampleShopper;

const DATA = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../data/shoppers',
);

const read = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(DATA, file), 'utf8')) as Shopper[];

/** The committed sample shopper lists (data/shoppers); a browser fetches one entry of one. */
export const shopperLists = { standard: read('standard.json'), loyalty: read('loyalty.json') };

export const allShoppers: Shopper[] = [...shopperLists.standard, ...shopperLists.loyalty];

/** Stores `shopper` as the browser's identity before any script of the first page runs. */
export async function storeShopperIdentity(page: Page, shopper: Shopper): Promise<void> {
  await page.addInitScript((s) => {
    if (location.protocol === 'about:' || localStorage.getItem('user_id')) return;
    localStorage.setItem('user_id', s.id);
    localStorage.setItem('user_name', s.name.toLowerCase().replace(' ', '.'));
    localStorage.setItem('user_email', s.email);
    localStorage.setItem('user_team', s.team);
    localStorage.setItem('user_use_discount', String(s.useDiscount));
    localStorage.setItem('user_use_new_checkout_flow', String(s.useNewCheckoutFlow));
  }, shopper);
}
