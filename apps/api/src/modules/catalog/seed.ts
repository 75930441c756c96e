import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { REPO_ROOT } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { CatalogSeed } from '@showroom/contracts/catalog';
import { colourName } from '@showroom/contracts/colours';

export const CATALOG_SEED_FILE = path.join(REPO_ROOT, 'data', 'catalog.json');

export async function readCatalogSeed(file = CATALOG_SEED_FILE): Promise<CatalogSeed> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as CatalogSeed;
}

/**
 * Seeds the catalog when it is empty. Inserts ignore rows that already exist, so replicas
 * starting together over one PostgreSQL database cannot seed twice.
 */
export async function seedCatalog(db: Kysely<Database>, seed: CatalogSeed): Promise<boolean> {
  const existing = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) return false;

  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('departments')
      .values(seed.departments.map((d, position) => ({ ...d, position })))
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute();
    await trx
      .insertInto('products')
      .values(
        seed.products.map((p) => ({
          id: p.id,
          department_slug: p.department,
          name: p.name,
          kind: p.kind,
          description: p.description,
          price_cents: p.priceCents,
          stock: p.stock,
          materials: JSON.stringify(p.materials),
          colour: p.colour,
          colour_name: colourName(p.colour),
          width_cm: p.dimensions.widthCm,
          depth_cm: p.dimensions.depthCm,
          height_cm: p.dimensions.heightCm,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await trx
      .insertInto('special_editions')
      .values(
        seed.products.map((p) => ({
          product_id: p.id,
          name: p.specialEdition.name,
          description: p.specialEdition.description,
          price_cents: p.specialEdition.priceCents,
          badge: p.specialEdition.badge,
          stock: p.specialEdition.stock,
        })),
      )
      .onConflict((oc) => oc.column('product_id').doNothing())
      .execute();
  });
  return true;
}
