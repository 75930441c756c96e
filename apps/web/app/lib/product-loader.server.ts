import { ApiResponseError, apiGet } from './api.server';
import type { Edition } from '@showroom/contracts/cart';
import type {
  Product,
  ProductSummary,
  RecommendationCandidates,
} from '@showroom/contracts/catalog';
import { parseProductParam } from '@showroom/contracts/product-paths';
import { routeInvalid } from './page-errors';

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
 * The candidates for "You may also like": the other products of the product's department
 * (`GET /products/:id/recommendations`). Meant to be started beside loadProduct and returned
 * un-awaited (the page streams them in). When the api cannot answer them (its 503 while the
 * recommendations fault flag is aimed at the shopper, decision 010) the promise resolves to
 * null rather than rejecting: a rejected streamed promise is an uncaught "Unexpected Server
 * Error" in the browser, before the page can show its error state.
 */
export function loadRelatedProducts(
  request: Request,
  productParam: string,
): Promise<ProductSummary[] | null> {
  const parsed = parseProductParam(productParam);
  if (!parsed) return Promise.resolve([]);
  return apiGet<RecommendationCandidates>(`/products/${parsed.id}/recommendations`, request).then(
    (candidates) => candidates.products,
    () => null,
  );
}
