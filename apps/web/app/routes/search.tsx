import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Route } from './+types/search';
import { ListingFilters } from '../components/listing-filters';
import { Pager } from '../components/pager';
import { ProductCard } from '../components/product-card';
import { pageMeta } from '../lib/page-meta';
import { apiGet } from '../lib/api.server';
import { hasFilters, withoutFilters, type ListingView } from '../lib/listing-view';
import { listingViewOf } from '../lib/listing-view.server';
import { trackAction } from '../monitoring/track';
import { useStartup } from '../startup/startup-context';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import {
  DEFAULT_PAGE_SIZE,
  SEARCH_SORTS,
  productQueryString,
  type SearchSort,
} from '@showroom/contracts/product-query';
import type { SearchResults } from '@showroom/contracts/search';

const PAGE_SIZE = DEFAULT_PAGE_SIZE;

/**
 * `/search?q=…` with the filters, sort and page in the URL (docs/decisions/009-search.md),
 * rendered on the server from `GET /search`. No query: a page that says where to type one.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const view = listingViewOf(request, SEARCH_SORTS);
  if (view.q === undefined) return { view, results: null };
  const results = await apiGet<SearchResults>(
    `/search${productQueryString({ ...view, limit: PAGE_SIZE })}`,
    request,
  );
  return { view, results };
}

export function meta({ data }: Route.MetaArgs) {
  const q = data?.view.q;
  const results = data?.results;
  if (!q || !results) {
    return pageMeta('Search', 'Search Showroom’s tables, chairs, sofas, bedding and lighting.');
  }
  const { total } = results;
  return [
    ...pageMeta(
      `“${q}” — Search`,
      total > 0
        ? `${total} ${total === 1 ? 'product matches' : 'products match'} “${q}” at Showroom.`
        : `No products match “${q}” at Showroom: spelling suggestions and popular products.`,
    ),
    // Result pages are many and short-lived: search engines should not keep them.
    { name: 'robots', content: 'noindex' },
  ];
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { view, results } = loaderData;
  useSearchActions(view, results);
  if (view.q === undefined || results === null) {
    return (
      <section className="search-page">
        <h1>Search</h1>
        <p className="muted">
          Type what you are looking for in the search box at the top of the page: a name, a kind of
          furniture, a colour or a material.
        </p>
      </section>
    );
  }
  const found = results.total > 0;
  return (
    <section className="search-page">
      <header className="listing__header">
        <h1>
          {found ? 'Results for' : 'No results for'} “{view.q}”
        </h1>
      </header>
      {found || hasFilters(view) ? (
        <ListingFilters view={view} facets={results.facets} sorts={SEARCH_SORTS} />
      ) : null}
      {found ? (
        <>
          {/* The grid's heading: the cards' names are h3s. */}
          <h2 className="listing__count muted" data-testid="product-count">
            {results.total} {results.total === 1 ? 'product' : 'products'}
          </h2>
          <div className="product-grid" data-testid="search-results">
            {results.products.map((product, position) => (
              <ProductCard key={product.id} product={product} priority={position < 3} />
            ))}
          </div>
          <Pager
            view={view}
            total={results.total}
            pageSize={PAGE_SIZE}
            shown={results.products.length}
          />
        </>
      ) : (
        <ZeroResults view={view} results={results} />
      )}
    </section>
  );
}

/** Nothing matched: the api's spelling suggestion, tips, and popular products. */
function ZeroResults({ view, results }: { view: ListingView<SearchSort>; results: SearchResults }) {
  const filtered = hasFilters(view);
  return (
    <div className="zero-results" data-testid="zero-results">
      {results.suggestion !== null ? (
        <p className="zero-results__suggestion">
          Did you mean{' '}
          <Link
            to={`/search${productQueryString({ ...view, q: results.suggestion, offset: 0 })}`}
            data-testid="spelling-suggestion"
          >
            {results.suggestion}
          </Link>
          ?
        </p>
      ) : null}
      <h2>Search tips</h2>
      <ul className="zero-results__tips">
        <li>Check the spelling, or use fewer words.</li>
        <li>Try a more general word: “table”, “lamp”, “sofa”.</li>
        <li>Search by colour or material: “green velvet”, “oak”.</li>
        {filtered ? (
          <li>
            Fewer filters find more:{' '}
            <Link to={`/search${productQueryString(withoutFilters(view))}`}>clear the filters</Link>
            .
          </li>
        ) : null}
      </ul>
      {results.popular.length > 0 ? (
        <>
          <h2>Popular products</h2>
          <div className="product-grid" data-testid="popular-products">
            {results.popular.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}

/**
 * Monitoring (issue 22): one `search` action per results view — a new query, filter or sort,
 * not another page of the same results — with the query's length and the result count; when
 * nothing matched, a `zero-result search` action as well. The query's text is not sent: a
 * shopper may type anything, personal data included. Sent once start-up has started the
 * monitoring SDK (a first load renders before it runs), in the task that shows the results (a
 * layout effect): whoever sees them, a shopper or a test, cannot leave before it is recorded.
 */
function useSearchActions(view: ListingView, results: SearchResults | null) {
  const startup = useStartup();
  const sent = useRef<string | null>(null);
  const search =
    results && view.q !== undefined ? productQueryString({ ...view, offset: 0 }) : null;
  useLayoutEffect(() => {
    if (startup === null || search === null || results === null || sent.current === search) {
      return;
    }
    sent.current = search;
    const context = {
      query_length: view.q?.length,
      result_count: results.total,
      filtered: hasFilters(view),
      sort: view.sort,
    };
    trackAction(MONITORING_ACTIONS.search, context);
    if (results.total === 0) {
      trackAction(MONITORING_ACTIONS.zeroResultSearch, {
        ...context,
        spelling_suggestion: results.suggestion !== null,
      });
    }
  }, [startup, search, results, view]);
}
