import { Type, type Static } from 'typebox';
import {
  literalUnion,
  PagingFields,
  ProductFacetsSchema,
  ProductFilterFields,
  ProductSummarySchema,
} from './catalog.js';
import { SEARCH_QUERY_MAX_LENGTH, SEARCH_SORTS } from './product-query.js';

// The sorts, the query's length and the view's query string live in product-query.ts (no
// TypeBox: the browser imports them at run time).
export {
  productQueryString,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_SORTS,
  type SearchSort,
} from './product-query.js';

/**
 * Search over the catalog (docs/decisions/009-search.md): `GET /search` and
 * `GET /search/suggestions`. Words match product name, description, department, kind, colour
 * name and materials; every word must match, the last one as a prefix ("sof" finds sofas).
 */

/** Most entries `GET /search/suggestions` answers (term completions and product names). */
export const MAX_SUGGESTIONS = 8;
/** Most term completions among them. */
export const MAX_TERM_SUGGESTIONS = 3;
/** Products a zero-result search offers instead. */
export const POPULAR_COUNT = 4;

const searchText = (description: string) =>
  Type.String({ minLength: 1, maxLength: SEARCH_QUERY_MAX_LENGTH, description });

export const SearchQuerySchema = Type.Object({
  q: searchText('What the shopper typed: words in any order; the last may be unfinished'),
  sort: Type.Optional(literalUnion(SEARCH_SORTS, { default: 'relevance' })),
  ...PagingFields,
  ...ProductFilterFields,
});
export type SearchQuery = Static<typeof SearchQuerySchema>;

export const SearchResultsSchema = Type.Object({
  /** `q` as received. */
  query: Type.String(),
  products: Type.Array(ProductSummarySchema),
  /** Products matching the query and filters, over all pages. */
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  offset: Type.Integer({ minimum: 0 }),
  sort: literalUnion(SEARCH_SORTS),
  facets: ProductFacetsSchema,
  /**
   * When nothing matched: the query with its misspelt words replaced by the closest words of
   * the catalog (by edit distance), if that query matches something with the same filters;
   * else null. Always null when something matched.
   */
  suggestion: Type.Union([Type.String(), Type.Null()]),
  /**
   * When nothing matched: a few products in stock, most ordered first; else empty. Product
   * summaries (the schema copied without its `$id`, which may appear once per document).
   */
  popular: Type.Array(Type.Object(ProductSummarySchema.properties)),
});
export type SearchResults = Static<typeof SearchResultsSchema>;

export const SearchSuggestionsQuerySchema = Type.Object({
  q: searchText('What the shopper has typed so far'),
});
export type SearchSuggestionsQuery = Static<typeof SearchSuggestionsQuerySchema>;

export const SearchSuggestionsSchema = Type.Object({
  query: Type.String(),
  /**
   * Up to MAX_TERM_SUGGESTIONS completions of the last word from the catalog's words (most
   * frequent first), each as the whole query to search: "dining ta" → "dining table".
   */
  terms: Type.Array(Type.String()),
  /** The best matching products, as many as fit in MAX_SUGGESTIONS with the terms. */
  products: Type.Array(
    Type.Object({
      id: Type.Integer({ minimum: 1 }),
      name: Type.String(),
      department: Type.String(),
    }),
  ),
});
export type SearchSuggestions = Static<typeof SearchSuggestionsSchema>;
