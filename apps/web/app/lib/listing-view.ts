import { COLOUR_NAMES, type ColourName } from '@showroom/contracts/colours';
import type { ProductFacets } from '@showroom/contracts/catalog';
import {
  type SearchSort,
  MAX_FILTER_VALUES,
  MAX_MATERIAL_LENGTH,
  MAX_OFFSET,
  MAX_PRICE_CENTS,
  SEARCH_QUERY_MAX_LENGTH,
  productQueryString,
} from '@showroom/contracts/product-query';

/**
 * What a department listing or the search page shows, read from its URL: the query (search
 * only), the filters, the sort and the page (docs/decisions/009-search.md). The URL is the only
 * state: the server renders from it, a shared link reproduces it.
 */
export interface ListingView<S extends string = string> {
  q?: string;
  /** Integer cents. */
  minPrice?: number;
  maxPrice?: number;
  colour: ColourName[];
  material: string[];
  inStock: boolean;
  sort: S;
  offset: number;
}

/** The sorts of listings and search (search alone has `relevance`), in the contract's order. */
export const SORT_LABELS: Readonly<Record<SearchSort, string>> = {
  relevance: 'Relevance',
  featured: 'Featured',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  'name-asc': 'Name: A–Z',
  'name-desc': 'Name: Z–A',
};

/**
 * The filter form's price fields, in dollars. A form sent without JavaScript carries them; the
 * page then redirects to the canonical URL, which has `minPrice` / `maxPrice` in cents.
 */
export const PRICE_FIELDS = { min: 'min', max: 'max' } as const;

/**
 * The view of a URL's query. Anything out of range or unknown is dropped rather than refused
 * (a hand-edited link still shows a page): an unknown sort is the default (`sorts[0]`), colours
 * outside the list and excess values are left out, a price range upside down is turned round.
 * Dollar fields (PRICE_FIELDS), when present, replace the cents ones.
 */
export function readListingView<S extends string>(
  params: URLSearchParams,
  sorts: readonly [S, ...S[]],
): ListingView<S> {
  const q = params.get('q')?.trim().slice(0, SEARCH_QUERY_MAX_LENGTH).trim();
  const price = (dollars: string, cents: string) =>
    params.has(dollars) ? parseDollars(params.get(dollars) ?? '') : parseCents(params.get(cents));
  let minPrice = price(PRICE_FIELDS.min, 'minPrice');
  let maxPrice = price(PRICE_FIELDS.max, 'maxPrice');
  if (minPrice !== undefined && maxPrice !== undefined && maxPrice < minPrice) {
    [minPrice, maxPrice] = [maxPrice, minPrice];
  }
  const colours = new Set(params.getAll('colour'));
  const sort = params.get('sort');
  const offset = Number(params.get('offset') ?? 0);
  return {
    ...(q ? { q } : {}),
    ...(minPrice === undefined ? {} : { minPrice }),
    ...(maxPrice === undefined ? {} : { maxPrice }),
    // The contract's colour order, so one choice has one URL.
    colour: COLOUR_NAMES.filter((name) => colours.has(name)),
    material: [...new Set(params.getAll('material'))]
      .filter((value) => value.length > 0 && value.length <= MAX_MATERIAL_LENGTH)
      .sort()
      .slice(0, MAX_FILTER_VALUES),
    inStock: params.get('inStock') === 'true',
    sort: sorts.find((value) => value === sort) ?? sorts[0],
    offset: Number.isInteger(offset) && offset > 0 && offset <= MAX_OFFSET ? offset : 0,
  };
}

/** Whether the URL carries the form's dollar fields, which the canonical URL has in cents. */
export function hasDollarFields(params: URLSearchParams): boolean {
  return params.has(PRICE_FIELDS.min) || params.has(PRICE_FIELDS.max);
}

export function hasFilters(view: ListingView): boolean {
  return (
    view.minPrice !== undefined ||
    view.maxPrice !== undefined ||
    view.colour.length > 0 ||
    view.material.length > 0 ||
    view.inStock
  );
}

/** The same view without filters and on its first page: the query and the sort stay. */
export function withoutFilters<S extends string>(view: ListingView<S>): ListingView<S> {
  return {
    ...(view.q ? { q: view.q } : {}),
    colour: [],
    material: [],
    inStock: false,
    sort: view.sort,
    offset: 0,
  };
}

/** A price typed in dollars ("12", "12.5", "$1,200.00") as integer cents; else undefined. */
export function parseDollars(text: string): number | undefined {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(cleaned)) return undefined;
  const cents = Math.round(Number(cleaned) * 100);
  return Math.min(cents, MAX_PRICE_CENTS);
}

/** Integer cents as a price field shows them: 1250 → "12.50", 12000 → "120". */
export function formatDollars(cents: number | undefined): string {
  if (cents === undefined) return '';
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

function parseCents(text: string | null): number | undefined {
  if (text === null || !/^\d{1,9}$/.test(text)) return undefined;
  return Math.min(Number(text), MAX_PRICE_CENTS);
}

/** One choice of a facet as the filter form shows it. */
export interface FacetOption<T extends string> {
  value: T;
  count: number;
  checked: boolean;
}

/**
 * A facet's choices: the api's values with their counts (its order: most products first), then
 * the chosen values it left out because nothing matches them now, with a count of 0 — a chosen
 * filter stays visible, and can be unchosen, whatever the other filters do.
 */
export function facetOptions<T extends string>(
  counts: readonly { value: T; count: number }[],
  chosen: readonly T[],
): FacetOption<T>[] {
  const options = counts.map(({ value, count }) => ({
    value,
    count,
    checked: chosen.includes(value),
  }));
  for (const value of chosen) {
    if (!counts.some((entry) => entry.value === value)) {
      options.push({ value, count: 0, checked: true });
    }
  }
  return options;
}

/** Colour and material choices of a view. */
export function filterOptions(view: ListingView, facets: ProductFacets) {
  return {
    colours: facetOptions(facets.colours, view.colour),
    materials: facetOptions(facets.materials, view.material),
  };
}

/** Where the previous and next pages are (query strings), and which products this page shows. */
export interface PageLinks {
  /** 1-based positions of the first and last product shown; 0 and 0 when none. */
  from: number;
  to: number;
  previous: string | null;
  next: string | null;
}

export function pageLinks(
  view: ListingView,
  total: number,
  pageSize: number,
  shown: number,
): PageLinks {
  const at = (offset: number) => productQueryString({ ...view, offset });
  return {
    from: shown === 0 ? 0 : view.offset + 1,
    to: shown === 0 ? 0 : view.offset + shown,
    previous: view.offset > 0 ? at(Math.max(0, view.offset - pageSize)) : null,
    next: view.offset + shown < total ? at(view.offset + pageSize) : null,
  };
}
