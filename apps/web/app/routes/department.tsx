import { Form, useSubmit } from 'react-router';
import type { Route } from './+types/department';
import { ProductCard } from '../components/product-card';
import { ApiResponseError, apiGet } from '../lib/api.server';
import type { ProductPage } from '@showroom/contracts/catalog';
import { PRODUCT_SORT_LABELS, isProductSort } from '../lib/catalog';
import { routeInvalid } from '../lib/page-errors';

export async function loader({ params, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const requestedSort = url.searchParams.get('sort');
  const sort = isProductSort(requestedSort) ? requestedSort : 'featured';
  if (!/^[a-z0-9-]{1,40}$/.test(params.dept)) routeInvalid(request);
  try {
    const page = await apiGet<ProductPage>(
      `/departments/${params.dept}/products?sort=${sort}&limit=48`,
      request,
    );
    return { page, sort };
  } catch (err) {
    if (err instanceof ApiResponseError && err.status === 404) routeInvalid(request);
    throw err;
  }
}

export function meta({ data }: Route.MetaArgs) {
  return data ? [{ title: `${data.page.department.name} — Showroom` }] : [];
}

export default function DepartmentPage({ loaderData }: Route.ComponentProps) {
  const { page, sort } = loaderData;
  const submit = useSubmit();
  return (
    <>
      <header className="listing__header">
        <div>
          <h1>{page.department.name}</h1>
          <p className="muted">{page.department.description}</p>
        </div>
        <Form
          method="get"
          className="sort-form"
          onChange={(event) => void submit(event.currentTarget)}
        >
          <label htmlFor="sort">Sort by</label>
          <select id="sort" name="sort" defaultValue={sort} key={sort}>
            {Object.entries(PRODUCT_SORT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <noscript>
            <button type="submit" className="button button--small">
              Sort
            </button>
          </noscript>
        </Form>
      </header>
      <p className="muted" data-testid="product-count">
        {page.total} products
      </p>
      <div className="product-grid">
        {page.products.map((product, position) => (
          <ProductCard key={product.id} product={product} priority={position < 3} />
        ))}
      </div>
    </>
  );
}
