import type { Edition } from './cart.js';

// The paths of product pages, for the web app's links and routes and the web server's page
// cache. No TypeBox here, so the browser imports it at run time (decision 006).

const SPECIAL_PREFIX = 'special-edition-';

/**
 * The `{product}` segment of a product path: `12` or `special-edition-12`. React
 * Router has no partial dynamic segments, so one route parses both forms.
 */
export function parseProductParam(
  param: string | undefined,
): { id: number; edition: Edition } | null {
  if (!param) return null;
  const edition: Edition = param.startsWith(SPECIAL_PREFIX) ? 'special' : 'standard';
  const digits = edition === 'special' ? param.slice(SPECIAL_PREFIX.length) : param;
  if (!/^[1-9][0-9]{0,8}$/.test(digits)) return null;
  return { id: Number(digits), edition };
}

export function productPath(
  product: { id: number; department: string },
  edition: Edition = 'standard',
): string {
  const segment = edition === 'special' ? `${SPECIAL_PREFIX}${product.id}` : String(product.id);
  return `/department/${product.department}/product/${segment}`;
}
