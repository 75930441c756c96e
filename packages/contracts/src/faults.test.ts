import { describe, expect, it } from 'vitest';
import {
  FAULT_FLAG_KEYS,
  FAULT_FLAGS,
  FAULT_RUM_ERRORS,
  hintedImageUrls,
  IMAGE_DELAY_MAX_MS,
  imageHintFor,
} from './faults.js';
import { productImage } from './product-images.js';

describe('fault flags (docs/decisions/010-fault-flags.md)', () => {
  it('lists the six fault flags, each off by default and described', () => {
    expect(FAULT_FLAG_KEYS).toEqual([
      'fault_product_api_latency_ms',
      'fault_payment_decline_percent',
      'fault_slow_product_images_ms',
      'fault_broken_product_images',
      'fault_recommendations_error',
      'fault_cart_query_latency_ms',
    ]);
    for (const key of FAULT_FLAG_KEYS) {
      const flag = FAULT_FLAGS[key];
      expect(flag.off).toBe(flag.type === 'BOOLEAN' ? false : 0);
      expect(flag.description.length).toBeGreaterThan(20);
    }
    expect(FAULT_FLAGS.fault_slow_product_images_ms.max).toBe(IMAGE_DELAY_MAX_MS);
  });

  it('names the RUM errors with stable, distinct messages', () => {
    expect(FAULT_RUM_ERRORS.paymentDeclined).toMatch(/^Payment declined: /);
    expect(new Set(Object.values(FAULT_RUM_ERRORS)).size).toBe(3);
  });
});

describe('image hints', () => {
  const url = '/img/products/13/std-0-800.jpg';

  it('leave URLs alone without a fault', () => {
    expect(imageHintFor(0, false)).toBeUndefined();
    expect(hintedImageUrls(url, undefined)).toBe(url);
  });

  it('move slow images under /img-slow/<ms> and broken ones under missing/', () => {
    const slow = imageHintFor(3000, false);
    expect(slow).toEqual({ base: '/img-slow/3000/', delayMs: 3000 });
    expect(hintedImageUrls(url, slow)).toBe('/img-slow/3000/products/13/std-0-800.jpg');
    const broken = imageHintFor(0, true);
    expect(broken).toEqual({ base: '/img/missing/', broken: true });
    expect(hintedImageUrls(url, broken)).toBe('/img/missing/products/13/std-0-800.jpg');
    expect(hintedImageUrls(url, imageHintFor(500, true))).toBe(
      '/img-slow/500/missing/products/13/std-0-800.jpg',
    );
  });

  it('change every URL of a srcset', () => {
    const image = productImage(13, 'std', 0);
    const hinted = hintedImageUrls(image.srcSet, imageHintFor(3000, false));
    expect(hinted.split(', ')).toEqual(
      image.srcSet.split(', ').map((entry) => entry.replace('/img/', '/img-slow/3000/')),
    );
    expect(hinted).not.toContain('/img/');
  });
});
