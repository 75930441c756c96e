import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PHOTO_SETS, PHOTO_VIEWS, productImageFiles } from '../../app/catalog/product-images.js';
import { buildJobs, expectedFiles } from '../generate-images.js';
import { parseCatalog } from './catalog.js';
import { KINDS, hasBuilder } from './furniture.js';
import { renderDepartmentSvg, renderHeroSvg, renderProductSvg } from './scenes.js';

const here = dirname(fileURLToPath(import.meta.url));
const catalog = parseCatalog(readFileSync(resolve(here, '../../../../data/catalog.json'), 'utf8'));
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
      expect(se).toBeDefined();
      if (!se) continue;
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
  it('produces exactly the files the URL helpers point at', () => {
    const files = expectedFiles(buildJobs(catalog)).map((f) => f.replace(/\\/g, '/'));
    for (const p of catalog.products) {
      for (const f of productImageFiles(p.id))
        expect(files.some((x) => x.endsWith(`/public/${f}`))).toBe(true);
    }
    // 60 products × 72 + hero 9 + 5 departments × 6.
    expect(files).toHaveLength(60 * 72 + 9 + 30);
  });
});
