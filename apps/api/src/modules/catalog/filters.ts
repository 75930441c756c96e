import { badRequest } from '../../http/errors.js';
import type { ProductFilters } from '@showroom/contracts/catalog';

/** The filters of a listing or search query string; a price range upside down is a 400. */
export function filtersOf(query: ProductFilters): ProductFilters {
  const { minPrice, maxPrice, colour, material, inStock } = query;
  if (minPrice !== undefined && maxPrice !== undefined && maxPrice < minPrice) {
    throw badRequest('maxPrice', 'querystring.maxPrice must be >= minPrice');
  }
  return { minPrice, maxPrice, colour, material, inStock };
}
