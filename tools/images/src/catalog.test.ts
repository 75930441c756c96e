import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  HERO_PRODUCT_ID,
  PHOTO_SETS,
  PHOTO_VIEWS,
  productImageFiles,
} from '@showroom/contracts/product-images';
import { describe, expect, it } from 'vitest';
import { CatalogError, loadCatalog, parseCatalog } from './catalog.js';
import { KINDS, hasBuilder } from './furniture.js';
import { CATALOG_FILE, buildJobs, expectedFiles } from './generate.js';
import { renderDepartmentSvg, renderHeroSvg, renderProductSvg } from './scenes.js';

const catalog = loadCatalog(CATALOG_FILE);
const DEPARTMENTS = ['tables', 'chairs', 'sofas', 'bedding', 'lighting'];

describe('data/catalog.json', () => {
  it('has the five departments in order', () => {
    expect(catalog.departments.map((d) => d.slug)).toEqual(DEPARTMENTS);
    for (const d of catalog.departments) expect(d.description.length).toBeGreaterThan(20);
  });

  it('has 12 products per department with ids 1..60 and product 10 a table', () => {
    expect(catalog.products).toHaveLength(60);
    catalog.products.forEach((p, i) => {
      expect(p.id).toBe(i + 1);
      expect(p.department).toBe(DEPARTMENTS[Math.floor(i / 12)]);
    });
    expect(catalog.products[9]?.department).toBe('tables');
    expect(catalog.products[9]?.kind).toBe('dining-table');
  });

  it('keeps prices, stock and names realistic', () => {
    const names = new Set<string>();
    for (const p of catalog.products) {
      expect(Number.isInteger(p.priceCents)).toBe(true);
      expect(p.priceCents).toBeGreaterThanOrEqual(1900);
      expect(p.priceCents).toBeLessThanOrEqual(350000);
      expect(p.stock).toBeGreaterThanOrEqual(5);
      expect(p.stock).toBeLessThanOrEqual(40);
      expect(p.colour).toMatch(/^#[0-9a-f]{6}$/);
      expect(p.materials.length).toBeGreaterThan(0);
      const { widthCm, depthCm, heightCm } = p.dimensions;
      for (const n of [widthCm, depthCm, heightCm]) expect(Number.isInteger(n) && n > 0).toBe(true);
      expect(names.has(p.name)).toBe(false);
      names.add(p.name);
      const se = p.specialEdition;
      expect(se.priceCents).toBeGreaterThan(p.priceCents);
      expect(se.stock).toBeGreaterThanOrEqual(2);
      expect(se.stock).toBeLessThanOrEqual(8);
      expect(se.colour).toMatch(/^#[0-9a-f]{6}$/);
      expect(se.badge.length).toBeLessThanOrEqual(20);
      expect(names.has(se.name)).toBe(false);
      names.add(se.name);
    }
  });

  it('only uses kinds the illustrator can draw', () => {
    for (const p of catalog.products) expect(hasBuilder(p.kind), p.kind).toBe(true);
    expect(new Set(catalog.products.map((p) => p.kind)).size).toBe(KINDS.length);
  });
});

describe('scenes', () => {
  it('renders every set and view of one product per kind as SVG', () => {
    const seen = new Set<string>();
    for (const product of catalog.products) {
      if (seen.has(product.kind)) continue;
      seen.add(product.kind);
      for (const set of PHOTO_SETS) {
        for (const view of PHOTO_VIEWS[set]) {
          const svg = renderProductSvg({ product, set, view }, 400, 300);
          expect(svg.startsWith('<svg')).toBe(true);
          expect(svg).not.toContain('NaN');
          expect(svg).not.toContain('undefined');
        }
      }
    }
  });

  it('is deterministic', () => {
    const product = catalog.products[24];
    if (!product) throw new Error('missing product');
    expect(renderProductSvg({ product, set: 'std', view: 0 }, 400, 300)).toBe(
      renderProductSvg({ product, set: 'std', view: 0 }, 400, 300),
    );
  });

  it('renders the hero and department banners', () => {
    const hero = catalog.products[9];
    if (!hero) throw new Error('missing hero');
    expect(renderHeroSvg(hero, 640, 360)).not.toContain('NaN');
    for (const d of catalog.departments)
      expect(renderDepartmentSvg(d, catalog.products, 400, 300)).not.toContain('NaN');
  });
});

describe('generator job list', () => {
  it('produces exactly the files the URL helpers point at, under the output folder', () => {
    const outDir = join('/out', 'img');
    const files = expectedFiles(buildJobs(catalog, outDir));
    const expected = new Set(
      catalog.products.flatMap((p) =>
        // productImageFiles() names files relative to the web's public/ (`img/products/…`).
        productImageFiles(p.id).map((f) => join(outDir, f.replace(/^img\//, ''))),
      ),
    );
    const written = new Set(files);
    for (const f of expected) expect(written.has(f), f).toBe(true);
    // 60 products × 72 + hero 9 + 5 departments × 6.
    expect(files).toHaveLength(60 * 72 + 9 + 30);
    expect(written.size).toBe(files.length);
    expect(files).toContain(join(outDir, 'hero', `table-${HERO_PRODUCT_ID}-1920.avif`));
    expect(files).toContain(join(outDir, 'departments', 'tables-800.webp'));
  });
});

describe('catalog validation', () => {
  const text = readFileSync(CATALOG_FILE, 'utf8');
  const edited = (edit: (json: Record<string, unknown[]>) => void): string => {
    const json = JSON.parse(text) as Record<string, unknown[]>;
    edit(json);
    return JSON.stringify(json);
  };
  const product = (json: Record<string, unknown[]>, i: number): Record<string, unknown> =>
    json.products?.[i] as Record<string, unknown>;

  it('accepts data/catalog.json', () => {
    expect(parseCatalog(text).products).toHaveLength(60);
  });

  it('names the first bad path against the contract schema', () => {
    const wrongType = edited((json) => {
      product(json, 5).priceCents = 'cheap';
    });
    expect(() => parseCatalog(wrongType, 'catalog.json')).toThrow(
      new CatalogError('catalog.json: products[5].priceCents must be integer'),
    );
    const missing = edited((json) => {
      delete (product(json, 3).specialEdition as Record<string, unknown>).colour;
    });
    expect(() => parseCatalog(missing, 'c.json')).toThrow(
      'c.json: products[3].specialEdition.colour is missing',
    );
    expect(() => parseCatalog('{"products": []}', 'c.json')).toThrow(
      'c.json: departments is missing',
    );
    expect(() => parseCatalog('[]', 'c.json')).toThrow('c.json: (root) must be object');
    expect(() => parseCatalog('{', 'c.json')).toThrow(/^c\.json: not JSON/);
  });

  it('rejects what the renderer cannot draw', () => {
    const unknownKind = edited((json) => {
      product(json, 2).kind = 'hammock';
    });
    expect(() => parseCatalog(unknownKind, 'c.json')).toThrow(
      'c.json: products[2].kind "hammock" has no illustration',
    );
    const duplicate = edited((json) => {
      product(json, 1).id = 1;
    });
    expect(() => parseCatalog(duplicate, 'c.json')).toThrow(
      'c.json: products[1].id 1 is a duplicate',
    );
    const noHero = edited((json) => {
      json.products =
        json.products?.filter((p) => (p as { id: number }).id !== HERO_PRODUCT_ID) ?? [];
    });
    expect(() => parseCatalog(noHero, 'c.json')).toThrow(
      `c.json: hero product ${HERO_PRODUCT_ID} is missing`,
    );
    const strayDepartment = edited((json) => {
      product(json, 0).department = 'garden';
    });
    expect(() => parseCatalog(strayDepartment, 'c.json')).toThrow(
      'c.json: products[0].department "garden" is not a department',
    );
  });
});
