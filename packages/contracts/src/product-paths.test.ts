import { describe, expect, it } from 'vitest';
import { parseProductParam, productPath } from './product-paths.js';

describe('product path segments (docs/requirements.md §2)', () => {
  it('reads a plain product id and a special edition id', () => {
    expect(parseProductParam('12')).toEqual({ id: 12, edition: 'standard' });
    expect(parseProductParam('special-edition-12')).toEqual({ id: 12, edition: 'special' });
  });

  it.each(['', 'abc', '0', '012', 'special-edition-', 'special-edition-x', '12abc', '1234567890'])(
    'rejects %j',
    (param) => {
      expect(parseProductParam(param)).toBeNull();
    },
  );

  it('builds the paths the routes parse', () => {
    expect(productPath({ id: 7, department: 'chairs' })).toBe('/department/chairs/product/7');
    expect(productPath({ id: 7, department: 'chairs' }, 'special')).toBe(
      '/department/chairs/product/special-edition-7',
    );
  });
});
