/**
 * Reads data/catalog.json (the generator's only data input) and checks it against the contract's
 * catalog seed schema, then against what the renderer can draw.
 */
import { readFileSync } from 'node:fs';
import { CatalogSeedSchema, type CatalogSeed } from '@showroom/contracts/catalog';
import { HERO_PRODUCT_ID } from '@showroom/contracts/product-images';
import { Compile } from 'typebox/compile';
import { hasBuilder } from './furniture.js';

export type Catalog = CatalogSeed;
export type CatalogProduct = CatalogSeed['products'][number];
export type CatalogDepartment = CatalogSeed['departments'][number];

/** The catalog cannot be drawn: not JSON, not a catalog seed, or naming things the tool lacks. */
export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogError';
  }
}

const seedValidator = Compile(CatalogSeedSchema);

/** `/products/3/specialEdition` + missing `colour` → `products[3].specialEdition.colour`. */
function pathOf(instancePath: string, params: object): string {
  const parts = instancePath.split('/').filter(Boolean);
  const required = (params as { requiredProperties?: string[] }).requiredProperties;
  if (required?.[0]) parts.push(required[0]);
  return parts.reduce(
    (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
    '',
  );
}

/** Parses and validates catalog JSON; `source` names the file in error messages. */
export function parseCatalog(text: string, source = 'catalog.json'): Catalog {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CatalogError(`${source}: not JSON (${String(err)})`);
  }
  if (!seedValidator.Check(json)) {
    const [first] = seedValidator.Errors(json);
    const where = first ? pathOf(first.instancePath, first.params) : '';
    const what = first?.keyword === 'required' ? 'is missing' : (first?.message ?? 'is invalid');
    throw new CatalogError(`${source}: ${where || '(root)'} ${what}`);
  }
  checkDrawable(json, source);
  return json;
}

/** What the schema cannot say: unique ids, known departments and kinds, the hero product. */
function checkDrawable(catalog: Catalog, source: string): void {
  const slugs = new Set(catalog.departments.map((d) => d.slug));
  const ids = new Set<number>();
  catalog.products.forEach((p, i) => {
    const where = `${source}: products[${i}]`;
    if (ids.has(p.id)) throw new CatalogError(`${where}.id ${p.id} is a duplicate`);
    ids.add(p.id);
    if (!slugs.has(p.department))
      throw new CatalogError(`${where}.department "${p.department}" is not a department`);
    if (!hasBuilder(p.kind))
      throw new CatalogError(`${where}.kind "${p.kind}" has no illustration`);
  });
  if (!ids.has(HERO_PRODUCT_ID))
    throw new CatalogError(`${source}: hero product ${HERO_PRODUCT_ID} is missing`);
}

export function loadCatalog(file: string): Catalog {
  return parseCatalog(readFileSync(file, 'utf8'), file);
}
