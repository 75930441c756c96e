import { ApiResponseError, apiGet } from './api.server';
import type { Edition } from '@showroom/contracts/cart';
import type { Product, ProductPage, ProductSummary } from '@showroom/contracts/catalog';
import { parseProductParam } from './catalog';
import { routeInvalid } from './page-errors';

/** What a department slug in a path may look like before the api is asked about it. */
const DEPARTMENT_SLUG = /^[a-z0-9-]{1,40}$/;

/**
 * The validity check of product routes: the product exists and belongs to the department in
 * the path; otherwise 'Page Not Found: {path}'.
 */
export async function loadProduct(
  request: Request,
  dept: string,
  productParam: string,
): Promise<{ product: Product; edition: Edition }> {
  const parsed = parseProductParam(productParam);
  if (!parsed) routeInvalid(request);
  let product: Product;
  try {
    product = await apiGet<Product>(`/products/${parsed.id}`, request);
  } catch (err) {
    if (err instanceof ApiResponseError && err.status === 404) routeInvalid(request);
    throw err;
  }
  if (product.department !== dept) routeInvalid(request);
  return { product, edition: parsed.edition };
}

/**
 * The candidates for "You may also like": the products of the department in the path. Meant
 * to be started beside loadProduct and returned un-awaited (the page streams them in). The
 * promise may reject; a rejection nobody awaits (the product check failed first) is not
 * reported as unhandled.
 */
export function loadRelatedProducts(request: Request, dept: string): Promise<ProductSummary[]> {
  const related = DEPARTMENT_SLUG.test(dept)
    ? apiGet<ProductPage>(`/departments/${dept}/products?limit=48`, request).then(
        (page) => page.products,
      )
    : Promise.resolve([]);
  related.catch(() => {});
  return related;
}
