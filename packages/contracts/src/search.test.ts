import { describe, expect, it } from 'vitest';
import { colourName, COLOUR_NAMES } from './colours.js';
import { productQueryString } from './search.js';

describe('productQueryString', () => {
  it('writes filters in one order, repeatable ones as repeated keys, defaults left out', () => {
    expect(
      productQueryString({
        sort: 'price-asc',
        material: ['solid oak', 'steel'],
        q: 'dining ta',
        colour: ['green', 'blue'],
        inStock: true,
        minPrice: 10_000,
        offset: 24,
      }),
    ).toBe(
      '?q=dining%20ta&minPrice=10000&colour=green&colour=blue&material=solid%20oak&material=steel&inStock=true&sort=price-asc&offset=24',
    );
    expect(productQueryString({ sort: 'relevance', inStock: false, offset: 0 })).toBe('');
    expect(productQueryString({ sort: 'featured', maxPrice: 0 })).toBe('?maxPrice=0');
  });
});

describe('colourName', () => {
  it.each([
    ['#2b2b2b', 'black'],
    ['#7d8a96', 'grey'],
    ['#f4f1ea', 'white'],
    ['#e8e4dc', 'beige'],
    ['#a47551', 'natural'],
    ['#6b4226', 'brown'],
    ['#8a3b3b', 'red'],
    ['#b5654a', 'orange'],
    ['#d4b83c', 'yellow'],
    ['#4f6b5a', 'green'],
    ['#3d4a66', 'blue'],
    ['#7a5c6e', 'purple'],
    ['#e3c8c0', 'pink'],
    ['nonsense', 'grey'],
  ])('%s is %s', (hex, name) => {
    expect(colourName(hex)).toBe(name);
  });

  it('names only colours of the list', () => {
    for (let value = 0; value < 0xffffff; value += 0x0f0f0f) {
      const hex = `#${value.toString(16).padStart(6, '0')}`;
      expect(COLOUR_NAMES).toContain(colourName(hex));
    }
  });
});
