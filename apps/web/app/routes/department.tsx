import type { Route } from './+types/department';
import { ListingFilters } from '../components/listing-filters';
import { Pager } from '../components/pager';
import { ProductCard } from '../components/product-card';
import { ApiResponseError, apiGet } from '../lib/api.server';
import type { ProductPage } from '@showroom/contracts/catalog';
import {
  MAX_PAGE_SIZE,
  PRODUCT_SORTS,
  productQueryString,
} from '@showroom/contracts/product-query';
import { listingViewOf } from '../lib/listing-view.server';
import { routeInvalid } from '../lib/page-errors';
import { pageMeta } from '../lib/page-meta';

/** A department shows up to this many products a page (a department has a few dozen). */
const PAGE_SIZE = MAX_PAGE_SIZE;

export async function loader({ params, request }: Route.LoaderArgs) {
  if (!/^[a-z0-9-]{1,40}$/.test(params.dept)) routeInvalid(request);
  const view = listingViewOf(request, PRODUCT_SORTS);
  try {
    const page = await apiGet<ProductPage>(
      `/departments/${params.dept}/products${productQueryString({ ...view, limit: PAGE_SIZE })}`,
      request,
    );
    return { page, view };
  } catch (err) {
    if (err instanceof ApiResponseError && err.status === 404) routeInvalid(request);
    throw err;
  }
}

export function meta({ data }: Route.MetaArgs) {
  return data ? pageMeta(data.page.department.name, data.page.department.description) : [];
}

export default function DepartmentPage({ loaderData }: Route.ComponentProps) {
  const { page, view } = loaderData;
  return (
    <>
      <header className="listing__header">
        <div>
          <h1>{page.department.name}</h1>
          <p className="muted">{page.department.description}</p>
        </div>
      </header>
      <ListingFilters view={view} facets={page.facets} sorts={PRODUCT_SORTS} />
      {/* The grid's heading: the cards' names are h3s. */}
      <h2 className="listing__count muted" data-testid="product-count">
        {page.total} {page.total === 1 ? 'product' : 'products'}
      </h2>
      <div className="product-grid">
        {page.products.map((product, position) => (
          <ProductCard key={product.id} product={product} priority={position < 3} />
        ))}
      </div>
      <Pager view={view} total={page.total} pageSize={PAGE_SIZE} shown={page.products.length} />
    </>
  );
}
