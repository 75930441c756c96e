import { ApiResponseError, apiGet } from './api.server';
import type { Edition } from '@showroom/contracts/cart';
import type { Product, ProductPage, ProductSummary } from '@showroom/contracts/catalog';
import { parseProductParam } from './catalog';
import { routeInvalid } from './page-errors';

/**
 * The validity check of product routes (spec §5): the product exists and belongs to the
 * department in the path; otherwise 'Page Not Found: {path}'.
 */
export async function loadProductPage(
  request: Request,
  dept: string,
  productParam: string,
): Promise<{ product: Product; edition: Edition; related: ProductSummary[] }> {
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
  const related = await apiGet<ProductPage>(
    `/departments/${product.department}/products?limit=48`,
    request,
  );
  return { product, edition: parsed.edition, related: related.products };
}
