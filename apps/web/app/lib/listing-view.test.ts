import { describe, expect, it } from 'vitest';
import { PRODUCT_SORTS, SEARCH_SORTS, productQueryString } from '@showroom/contracts/product-query';
import {
  facetOptions,
  formatDollars,
  hasDollarFields,
  hasFilters,
  pageLinks,
  parseDollars,
  readListingView,
  withoutFilters,
} from './listing-view';

const read = (query: string) => readListingView(new URLSearchParams(query), SEARCH_SORTS);

describe('a listing view from its URL', () => {
  it('reads the query, the filters, the sort and the page', () => {
    expect(
      read(
        'q=%20dining%20ta%20&minPrice=10000&maxPrice=50000&colour=green&colour=blue' +
          '&material=steel&material=solid%20oak&inStock=true&sort=price-asc&offset=24',
      ),
    ).toEqual({
      q: 'dining ta',
      minPrice: 10_000,
      maxPrice: 50_000,
      colour: ['green', 'blue'],
      material: ['solid oak', 'steel'],
      inStock: true,
      sort: 'price-asc',
      offset: 24,
    });
  });

  it('is the default view for an empty query', () => {
    expect(read('')).toEqual({
      colour: [],
      material: [],
      inStock: false,
      sort: 'relevance',
      offset: 0,
    });
    expect(readListingView(new URLSearchParams(''), PRODUCT_SORTS).sort).toBe('featured');
  });

  it('drops what the api would refuse instead of failing the page', () => {
    const view = read(
      `q=${'x'.repeat(150)}&minPrice=-5&maxPrice=1.5&colour=teal&colour=green&colour=green` +
        `&material=&material=${'m'.repeat(61)}&inStock=yes&sort=cheapest&offset=-24`,
    );
    expect(view).toEqual({
      q: 'x'.repeat(100),
      colour: ['green'],
      material: [],
      inStock: false,
      sort: 'relevance',
      offset: 0,
    });
    expect(read('q=%20%20').q).toBeUndefined();
    expect(read('offset=10001').offset).toBe(0);
    expect(readListingView(new URLSearchParams('sort=relevance'), PRODUCT_SORTS).sort).toBe(
      'featured',
    );
  });

  it('turns an upside-down price range round', () => {
    expect(read('minPrice=50000&maxPrice=10000')).toMatchObject({
      minPrice: 10_000,
      maxPrice: 50_000,
    });
  });

  it('takes dollar fields (a form sent without JavaScript) over cents, empty ones as cleared', () => {
    expect(read('min=120&max=%241%2C250.5&minPrice=1')).toMatchObject({
      minPrice: 12_000,
      maxPrice: 125_050,
    });
    expect(read('min=&max=&minPrice=100&maxPrice=900')).not.toHaveProperty('minPrice');
    expect(hasDollarFields(new URLSearchParams('q=a&min='))).toBe(true);
    expect(hasDollarFields(new URLSearchParams('q=a&minPrice=100'))).toBe(false);
  });

  it('writes the same URL for the same choices, whatever their order', () => {
    const one = read('colour=blue&colour=green&material=steel&material=oak&inStock=true');
    const other = read('inStock=true&material=oak&colour=green&material=steel&colour=blue');
    expect(productQueryString(one)).toBe(productQueryString(other));
    expect(productQueryString(one)).toBe(
      '?colour=green&colour=blue&material=oak&material=steel&inStock=true',
    );
  });

  it('round-trips through its canonical query string', () => {
    const view = read(
      'q=oak%20%26%20ash&minPrice=100&maxPrice=900&colour=red&material=solid%20oak&inStock=true&sort=name-desc&offset=24',
    );
    expect(read(productQueryString(view).slice(1))).toEqual(view);
  });

  it('knows whether it is filtered, and drops the filters but keeps the query and the sort', () => {
    expect(hasFilters(read('q=lamp&sort=price-asc&offset=24'))).toBe(false);
    for (const filter of [
      'minPrice=1',
      'maxPrice=1',
      'colour=red',
      'material=oak',
      'inStock=true',
    ]) {
      expect(hasFilters(read(`q=lamp&${filter}`)), filter).toBe(true);
    }
    const filtered = read('q=lamp&colour=red&inStock=true&sort=price-asc&offset=24');
    expect(productQueryString(withoutFilters(filtered))).toBe('?q=lamp&sort=price-asc');
  });
});

describe('prices in dollars', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['$1,200.00', 120_000],
    [' 0.99 ', 99],
    ['.5', 50],
    ['0', 0],
    ['10.006', 1001],
    ['99999999', 100_000_000],
  ])('%j is %i cents', (text, cents) => {
    expect(parseDollars(text)).toBe(cents);
  });

  it.each(['', ' ', 'abc', '-5', '1e3', '12.3.4', '$'])('%j is no price', (text) => {
    expect(parseDollars(text)).toBeUndefined();
  });

  it('shows cents as a price field does', () => {
    expect(formatDollars(1250)).toBe('12.50');
    expect(formatDollars(12_000)).toBe('120');
    expect(formatDollars(5)).toBe('0.05');
    expect(formatDollars(undefined)).toBe('');
  });
});

describe('facet options', () => {
  it("lists the api's counts, marks the chosen ones, and keeps a chosen value that matches nothing", () => {
    expect(
      facetOptions(
        [
          { value: 'green', count: 4 },
          { value: 'blue', count: 2 },
        ],
        ['blue', 'red'],
      ),
    ).toEqual([
      { value: 'green', count: 4, checked: false },
      { value: 'blue', count: 2, checked: true },
      { value: 'red', count: 0, checked: true },
    ]);
  });
});

describe('page links', () => {
  const view = read('q=chair&colour=red');

  it('links the next page of the same view, none before the first', () => {
    expect(pageLinks(view, 60, 24, 24)).toEqual({
      from: 1,
      to: 24,
      previous: null,
      next: '?q=chair&colour=red&offset=24',
    });
  });

  it('links back to the first page without an offset, none after the last', () => {
    expect(pageLinks({ ...view, offset: 48 }, 60, 24, 12)).toEqual({
      from: 49,
      to: 60,
      previous: '?q=chair&colour=red&offset=24',
      next: null,
    });
    expect(pageLinks({ ...view, offset: 24 }, 60, 24, 24).previous).toBe('?q=chair&colour=red');
  });

  it('shows nothing past the end but still links back', () => {
    expect(pageLinks({ ...view, offset: 96 }, 60, 24, 0)).toEqual({
      from: 0,
      to: 0,
      previous: '?q=chair&colour=red&offset=72',
      next: null,
    });
  });
});
