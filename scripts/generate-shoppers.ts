// Writes the sample shopper lists, data/shoppers/standard.json and loyalty.json, from a fixed
// seed. Run from the repository root: npx tsx scripts/generate-shoppers.ts
// The output is deterministic; apps/web/app/startup/shopper-lists.test.ts checks that the
// committed files equal a fresh generation.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  generateShoppers,
  serialiseShopperList,
  SHOPPER_SEED,
} from '../apps/web/app/startup/shopper-generator';

const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'shoppers');
const lists = generateShoppers(SHOPPER_SEED);
mkdirSync(outDir, { recursive: true });
for (const kind of ['standard', 'loyalty'] as const) {
  const file = join(outDir, `${kind}.json`);
  writeFileSync(file, serialiseShopperList(lists[kind]));
  console.log(`wrote ${lists[kind].length} shoppers to ${file}`);
}
