import { describe, expect, it } from 'vitest';
import {
  DEPARTMENT_IMAGE_WIDTHS,
  HERO_IMAGE_ASPECT,
  HERO_IMAGE_WIDTHS,
  HERO_PRODUCT_ID,
  IMAGE_FORMATS,
  PHOTO_SETS,
  PHOTO_VIEWS,
  PRODUCT_IMAGE_ASPECT,
  PRODUCT_IMAGE_WIDTHS,
  buildSrcSet,
  departmentImage,
  departmentImageUrl,
  hasView,
  heroImage,
  heroImageUrl,
  imageHeight,
  isPhotoSet,
  normalizeView,
  productImage,
  productImageFiles,
  productImageUrl,
  srcSet,
  viewsFor,
} from './product-images.js';

describe('constants', () => {
  it('describes the generated renditions', () => {
    expect(PRODUCT_IMAGE_WIDTHS).toEqual([400, 800, 1200]);
    expect(HERO_IMAGE_WIDTHS).toEqual([640, 1280, 1920]);
    expect(DEPARTMENT_IMAGE_WIDTHS).toEqual([400, 800]);
    expect(IMAGE_FORMATS).toEqual(['avif', 'webp', 'jpg']);
    expect(PHOTO_SETS).toEqual(['std', 'new', 'se']);
    expect(PHOTO_VIEWS).toEqual({ std: [0, 1, 2], new: [0, 1, 2], se: [0, 1] });
    expect(HERO_PRODUCT_ID).toBe(10);
  });

  it('computes integer heights for every width', () => {
    expect(PRODUCT_IMAGE_WIDTHS.map((w) => imageHeight(w))).toEqual([300, 600, 900]);
    expect(HERO_IMAGE_WIDTHS.map((w) => imageHeight(w, HERO_IMAGE_ASPECT))).toEqual([
      360, 720, 1080,
    ]);
    expect(imageHeight(800, PRODUCT_IMAGE_ASPECT)).toBe(600);
  });
});

describe('productImageUrl', () => {
  it('follows /img/products/{id}/{set}-{view}-{width}.{ext}', () => {
    expect(productImageUrl(10, 'std', 0, 800, 'avif')).toBe('/img/products/10/std-0-800.avif');
    expect(productImageUrl(1, 'new', 2, 400, 'webp')).toBe('/img/products/1/new-2-400.webp');
    expect(productImageUrl(60, 'se', 1, 1200, 'jpg')).toBe('/img/products/60/se-1-1200.jpg');
  });

  it('rejects views a set does not have and invalid ids', () => {
    expect(() => productImageUrl(1, 'se', 2, 400, 'jpg')).toThrow(RangeError);
    expect(() => productImageUrl(0, 'std', 0, 400, 'jpg')).toThrow(RangeError);
    expect(() => productImageUrl(1.5, 'std', 0, 400, 'jpg')).toThrow(RangeError);
  });
});

describe('srcSet', () => {
  it('lists every product width with a w descriptor', () => {
    expect(srcSet(7, 'std', 1, 'webp')).toBe(
      '/img/products/7/std-1-400.webp 400w, /img/products/7/std-1-800.webp 800w, /img/products/7/std-1-1200.webp 1200w',
    );
  });

  it('builds generic srcsets', () => {
    expect(buildSrcSet([1, 2], (w) => `/a-${w}.png`)).toBe('/a-1.png 1w, /a-2.png 2w');
  });
});

describe('views', () => {
  it('knows which views exist', () => {
    expect(hasView('std', 2)).toBe(true);
    expect(hasView('se', 2)).toBe(false);
    expect(hasView('new', 3)).toBe(false);
    expect(viewsFor('se')).toEqual([0, 1]);
  });

  it('clamps missing views to the set hero view', () => {
    expect(normalizeView('se', 2)).toBe(0);
    expect(normalizeView('std', 2)).toBe(2);
    expect(normalizeView('new', 7)).toBe(0);
  });

  it('recognises photo set names', () => {
    expect(isPhotoSet('new')).toBe(true);
    expect(isPhotoSet('old')).toBe(false);
    expect(isPhotoSet(undefined)).toBe(false);
  });
});

describe('productImage', () => {
  it('returns AVIF and WebP sources plus a JPEG fallback with intrinsic size', () => {
    const img = productImage(3, 'new', 1);
    expect(img.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    expect(img.sources[0]?.srcSet).toBe(srcSet(3, 'new', 1, 'avif'));
    expect(img.src).toBe('/img/products/3/new-1-800.jpg');
    expect(img.srcSet).toBe(srcSet(3, 'new', 1, 'jpg'));
    expect([img.width, img.height]).toEqual([1200, 900]);
  });

  it('falls back to view 0 for the special edition close-up', () => {
    expect(productImage(3, 'se', 2).src).toBe('/img/products/3/se-0-800.jpg');
  });
});

describe('hero and department images', () => {
  it('points at the table hero banner', () => {
    expect(heroImageUrl(1920, 'jpg')).toBe('/img/hero/table-10-1920.jpg');
    const hero = heroImage();
    expect(hero.src).toBe('/img/hero/table-10-1280.jpg');
    expect([hero.width, hero.height]).toEqual([1920, 1080]);
    expect(hero.sources[0]?.srcSet).toBe(
      '/img/hero/table-10-640.avif 640w, /img/hero/table-10-1280.avif 1280w, /img/hero/table-10-1920.avif 1920w',
    );
  });

  it('points at department banners', () => {
    expect(departmentImageUrl('sofas', 400, 'webp')).toBe('/img/departments/sofas-400.webp');
    const dept = departmentImage('lighting');
    expect(dept.src).toBe('/img/departments/lighting-400.jpg');
    expect([dept.width, dept.height]).toEqual([800, 600]);
    expect(() => departmentImageUrl('../etc', 400, 'jpg')).toThrow(RangeError);
  });
});

describe('productImageFiles', () => {
  it('lists the 72 files generated per product', () => {
    const files = productImageFiles(10);
    expect(files).toHaveLength((3 + 3 + 2) * 3 * 3);
    expect(new Set(files).size).toBe(files.length);
    expect(files).toContain('img/products/10/std-0-800.avif');
    expect(files).toContain('img/products/10/se-1-1200.jpg');
    expect(files.some((f) => f.includes('se-2-'))).toBe(false);
  });
});
