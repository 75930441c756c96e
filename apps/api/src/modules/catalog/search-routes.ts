import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef } from '../../http/errors.js';
import type { RequestFaults } from '../faults/request-faults.js';
import { filtersOf } from './filters.js';
import { withImageHint } from './routes.js';
import type { CatalogSearch } from './search.js';
import { DEFAULT_PAGE_SIZE } from '@showroom/contracts/catalog';
import {
  SearchQuerySchema,
  SearchResultsSchema,
  SearchSuggestionsQuerySchema,
  SearchSuggestionsSchema,
} from '@showroom/contracts/search';

export interface SearchRoutesOptions {
  search: CatalogSearch;
  /** Image fault flags aimed at the shopper change the products' image URLs (decision 010). */
  faults: RequestFaults;
}

/**
 * `GET /search` and `GET /search/suggestions` (docs/decisions/009-search.md). Each sets span
 * attributes on the request's server span: the query's length and how many products matched.
 */
export const searchRoutes: FastifyPluginAsyncTypebox<SearchRoutesOptions> = async (
  app,
  { search, faults },
) => {
  app.get(
    '/search',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Products matching a query, filtered and sorted, with facets',
        description:
          'Every word must match (name, description, department, kind, colour, materials), the ' +
          'last one as a prefix. Nothing found: a spelling suggestion and popular products.',
        querystring: SearchQuerySchema,
        response: { 200: SearchResultsSchema, 400: errorRef },
      },
    },
    async (request) => {
      const { q, sort = 'relevance', limit = DEFAULT_PAGE_SIZE, offset = 0 } = request.query;
      const filters = filtersOf(request.query);
      const [found, hint] = await Promise.all([
        search.search({ q, filters, sort, limit, offset }),
        faults.imageHint(request),
      ]);
      request.trace?.span.setAttributes({
        'search.query_length': q.length,
        'search.result_count': found.total,
        'search.zero_results': found.total === 0,
      });
      return {
        query: q,
        ...found,
        products: withImageHint(found.products, hint),
        popular: withImageHint(found.popular, hint),
        limit,
        offset,
        sort,
      };
    },
  );

  app.get(
    '/search/suggestions',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Suggestions while typing: word completions and product names',
        querystring: SearchSuggestionsQuerySchema,
        response: { 200: SearchSuggestionsSchema, 400: errorRef },
      },
    },
    async (request) => {
      const { q } = request.query;
      const suggestions = await search.suggest(q);
      request.trace?.span.setAttributes({
        'search.query_length': q.length,
        'search.suggestion_count': suggestions.terms.length + suggestions.products.length,
      });
      return { query: q, ...suggestions };
    },
  );
};
