/** Shapes of the api's catalog answers (see the api's /docs). */
export interface Department {
  slug: string;
  name: string;
  description: string;
  productCount: number;
}

export interface ProductSummary {
  id: number;
  department: string;
  name: string;
  kind: string;
  priceCents: number;
  stock: number;
  colour: string;
  materials: string[];
  specialEdition: { priceCents: number; badge: string; stock: number };
}

export interface Product extends Omit<ProductSummary, 'specialEdition'> {
  description: string;
  dimensions: { widthCm: number; depthCm: number; heightCm: number };
  specialEdition: {
    name: string;
    description: string;
    priceCents: number;
    badge: string;
    stock: number;
  };
}

export interface ProductPage {
  department: Department;
  products: ProductSummary[];
  total: number;
  limit: number;
  offset: number;
  sort: string;
}

export const PRODUCT_SORTS = [
  { value: 'featured', label: 'Featured' },
  { value: 'price-asc', label: 'Price: low to high' },
  { value: 'price-desc', label: 'Price: high to low' },
  { value: 'name-asc', label: 'Name: A–Z' },
  { value: 'name-desc', label: 'Name: Z–A' },
] as const;

export type ProductSortValue = (typeof PRODUCT_SORTS)[number]['value'];

export function isProductSort(value: string | null): value is ProductSortValue {
  return PRODUCT_SORTS.some((sort) => sort.value === value);
}

export type Edition = 'standard' | 'special';

const SPECIAL_PREFIX = 'special-edition-';

/**
 * The `{product}` segment of a product path: `12` or `special-edition-12` (spec §2). React
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
