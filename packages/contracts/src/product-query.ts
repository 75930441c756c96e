import type { ProductFilters } from './catalog.js';

/**
 * The query of a listing or search view (docs/decisions/009-search.md): its sorts, limits and
 * its canonical query string. No TypeBox here, so the browser imports it at run time
 * (decision 006); catalog.ts and search.ts build their schemas from these values and re-export
 * them.
 */

export const PRODUCT_SORTS = [
  'featured',
  'price-asc',
  'price-desc',
  'name-asc',
  'name-desc',
] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/** `relevance` (the default) ranks name matches above department, colour and material, above description. */
export const SEARCH_SORTS = ['relevance', ...PRODUCT_SORTS] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const MAX_PAGE_SIZE = 48;
export const DEFAULT_PAGE_SIZE = 24;
/** Highest `offset` a page takes. */
export const MAX_OFFSET = 10_000;
/** Highest `minPrice` / `maxPrice`, integer cents. */
export const MAX_PRICE_CENTS = 100_000_000;
/** Most values one `colour` or `material` filter takes. */
export const MAX_FILTER_VALUES = 20;
/** Longest `material` value. */
export const MAX_MATERIAL_LENGTH = 60;
export const SEARCH_QUERY_MAX_LENGTH = 100;

type QueryValue = string | number | boolean | readonly string[] | undefined;

/**
 * The query string of a listing or search view, in one canonical order (q, filters, sort,
 * paging; repeatable filters as repeated keys), so a link the web builds reproduces the view
 * and the api reads exactly it. Defaults (`featured` / `relevance`, offset 0) are left out.
 */
export function productQueryString(
  query: ProductFilters & { q?: string; sort?: string; limit?: number; offset?: number },
): string {
  const params: string[] = [];
  const add = (key: string, value: string | number | boolean) =>
    params.push(`${key}=${encodeURIComponent(value)}`);
  const entries: [string, QueryValue][] = [
    ['q', query.q],
    ['minPrice', query.minPrice],
    ['maxPrice', query.maxPrice],
    ['colour', query.colour],
    ['material', query.material],
    ['inStock', query.inStock === true ? true : undefined],
    ['sort', query.sort === 'featured' || query.sort === 'relevance' ? undefined : query.sort],
    ['limit', query.limit],
    ['offset', query.offset === 0 ? undefined : query.offset],
  ];
  for (const [key, value] of entries) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const item of value as readonly string[]) add(key, item);
    else add(key, value as string | number | boolean);
  }
  return params.length > 0 ? `?${params.join('&')}` : '';
}
