import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { SampleShopper } from '@showroom/contracts/shopper';

export type Shopper = SampleShopper;

const DATA = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../data/shoppers',
);

const read = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(DATA, file), 'utf8')) as Shopper[];

/** The committed sample shopper lists (data/shoppers), as the browser loads them. */
export const shopperLists = { standard: read('standard.json'), loyalty: read('loyalty.json') };

export const allShoppers: Shopper[] = [...shopperLists.standard, ...shopperLists.loyalty];
