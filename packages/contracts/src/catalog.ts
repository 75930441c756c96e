import { Type, type Static, type TSchema } from 'typebox';
import { COLOUR_NAMES } from './colours.js';
import { IMAGE_DELAY_MAX_MS, type ImageHint } from './faults.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_FILTER_VALUES,
  MAX_MATERIAL_LENGTH,
  MAX_OFFSET,
  MAX_PAGE_SIZE,
  MAX_PRICE_CENTS,
  PRODUCT_SORTS,
} from './product-query.js';

export const DepartmentSchema = Type.Object(
  {
    slug: Type.String(),
    name: Type.String(),
    description: Type.String(),
    productCount: Type.Integer({ minimum: 0 }),
  },
  { $id: 'Department' },
);
export type Department = Static<typeof DepartmentSchema>;

export const SpecialEditionSummarySchema = Type.Object({
  priceCents: Type.Integer({ minimum: 1 }),
  badge: Type.String(),
  stock: Type.Integer({ minimum: 0 }),
});

/**
 * How the web must change this product's image URLs for the shopper who asked: present only
 * while an image fault flag is aimed at them (docs/decisions/010-fault-flags.md).
 */
export const ImageHintSchema = Type.Unsafe<ImageHint>(
  Type.Object(
    {
      base: Type.String({
        pattern: '^/img(-slow/[1-9][0-9]*)?/(missing/)?$',
        description: "Serve the product's images from here instead of /img/",
      }),
      delayMs: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: IMAGE_DELAY_MAX_MS,
          description: 'Why: the web server waits this long before serving each image',
        }),
      ),
      broken: Type.Optional(
        Type.Boolean({ description: 'Why: the image URLs point at a path that answers 404' }),
      ),
    },
    // No $id: product summaries are copied into other answers (search's `popular`).
    { title: 'ImageHint' },
  ),
);

export const ProductSummarySchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    department: Type.String(),
    name: Type.String(),
    kind: Type.String(),
    priceCents: Type.Integer({ minimum: 1, description: 'Price in integer cents' }),
    stock: Type.Integer({ minimum: 0 }),
    colour: Type.String(),
    materials: Type.Array(Type.String()),
    specialEdition: SpecialEditionSummarySchema,
    imageHint: Type.Optional(ImageHintSchema),
  },
  { $id: 'ProductSummary' },
);
export type ProductSummary = Static<typeof ProductSummarySchema>;

export const SpecialEditionSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  priceCents: Type.Integer({ minimum: 1 }),
  badge: Type.String(),
  stock: Type.Integer({ minimum: 0 }),
});

export const ProductSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    department: Type.String(),
    name: Type.String(),
    kind: Type.String(),
    description: Type.String(),
    priceCents: Type.Integer({ minimum: 1, description: 'Price in integer cents' }),
    stock: Type.Integer({ minimum: 0 }),
    colour: Type.String(),
    materials: Type.Array(Type.String()),
    dimensions: Type.Object({
      widthCm: Type.Integer({ minimum: 1 }),
      depthCm: Type.Integer({ minimum: 1 }),
      heightCm: Type.Integer({ minimum: 1 }),
    }),
    specialEdition: SpecialEditionSchema,
    imageHint: Type.Optional(ImageHintSchema),
  },
  { $id: 'Product' },
);
export type Product = Static<typeof ProductSchema>;

// The sorts, page sizes and filter limits live in product-query.ts (no TypeBox: the browser
// imports them at run time).
export {
  DEFAULT_PAGE_SIZE,
  MAX_FILTER_VALUES,
  MAX_PAGE_SIZE,
  PRODUCT_SORTS,
  type ProductSort,
} from './product-query.js';

export const DepartmentSlugParamsSchema = Type.Object({
  slug: Type.String({ pattern: '^[a-z0-9-]{1,40}$', description: 'Department slug' }),
});

/** One of `values` (`anyOf` of constants), typed as their union. */
export function literalUnion<const T extends readonly string[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
) {
  return Type.Unsafe<T[number]>(
    Type.Union(
      values.map((value) => Type.Literal(value)),
      options,
    ),
  );
}

export const ColourNameSchema = literalUnion(COLOUR_NAMES, {
  description: "A colour family (colours.ts colourName of the product's hex colour)",
});

/**
 * The filters of a listing and of search (docs/decisions/009-search.md). Every filter given
 * must hold (AND); the values of one repeatable filter are alternatives (OR):
 * `?colour=green&colour=blue&inStock=true` is green or blue, and in stock.
 */
export const ProductFilterFields = {
  minPrice: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_PRICE_CENTS,
      description: 'Lowest price, integer cents',
    }),
  ),
  maxPrice: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_PRICE_CENTS,
      description: 'Highest price, integer cents (≥ minPrice)',
    }),
  ),
  colour: Type.Optional(
    Type.Array(ColourNameSchema, {
      maxItems: COLOUR_NAMES.length,
      description: 'Repeatable: products of any of these colours',
    }),
  ),
  material: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: MAX_MATERIAL_LENGTH }), {
      maxItems: MAX_FILTER_VALUES,
      description: "Repeatable: products made with any of these materials (the catalog's values)",
    }),
  ),
  inStock: Type.Optional(
    Type.Boolean({ description: 'true: only products in stock (standard edition); false: all' }),
  ),
};

export const ProductFiltersSchema = Type.Object(ProductFilterFields);
export type ProductFilters = Static<typeof ProductFiltersSchema>;

export const PagingFields = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
};

export const ListProductsQuerySchema = Type.Object({
  sort: Type.Optional(literalUnion(PRODUCT_SORTS, { default: 'featured' })),
  ...PagingFields,
  ...ProductFilterFields,
});
export type ListProductsQuery = Static<typeof ListProductsQuerySchema>;

export const ProductIdParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Product id' }),
});

export const DepartmentListSchema = Type.Object({ departments: Type.Array(DepartmentSchema) });

const FacetValueSchema = <T extends TSchema>(value: T) =>
  Type.Object({ value, count: Type.Integer({ minimum: 1 }) });

/**
 * Counts over the products a listing or search matches (docs/decisions/009-search.md). Each
 * facet counts with every other filter applied but not its own, so a shopper sees what
 * choosing another value would give: `colours` ignores `colour`, `materials` ignores `material`,
 * `price` (the lowest and highest price, null when nothing matches) ignores `minPrice` and
 * `maxPrice`, `inStock` (how many are in stock) ignores `inStock`. Values are sorted by count,
 * then name; a value chosen in the filter but matching nothing is left out.
 */
export const ProductFacetsSchema = Type.Object({
  colours: Type.Array(FacetValueSchema(ColourNameSchema)),
  materials: Type.Array(FacetValueSchema(Type.String())),
  price: Type.Object({
    min: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    max: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  }),
  inStock: Type.Integer({ minimum: 0 }),
});
export type ProductFacets = Static<typeof ProductFacetsSchema>;

/** Most candidates GET /products/:id/recommendations answers. */
export const MAX_RECOMMENDATION_CANDIDATES = 48;

/**
 * What "You may also like" chooses from: the other products of the product's department, in
 * the shop's featured order; the browser orders them by the `recommendations_strategy` flag.
 */
export const RecommendationCandidatesSchema = Type.Object({
  products: Type.Array(ProductSummarySchema, { maxItems: MAX_RECOMMENDATION_CANDIDATES }),
});
export type RecommendationCandidates = Static<typeof RecommendationCandidatesSchema>;

export const ProductPageSchema = Type.Object({
  department: DepartmentSchema,
  products: Type.Array(ProductSummarySchema),
  /** Products matching the filters, over all pages. */
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  offset: Type.Integer({ minimum: 0 }),
  sort: Type.String(),
  facets: ProductFacetsSchema,
});

/**
 * data/catalog.json: the seed the api loads into SQL and the image tool draws from. Product ids
 * are stable; every product has a special edition with its own price, stock and colour.
 */
export const CatalogSeedSchema = Type.Object({
  departments: Type.Array(
    Type.Object({ slug: Type.String(), name: Type.String(), description: Type.String() }),
  ),
  products: Type.Array(
    Type.Object({
      id: Type.Integer({ minimum: 1 }),
      department: Type.String(),
      name: Type.String(),
      kind: Type.String(),
      description: Type.String(),
      priceCents: Type.Integer({ minimum: 1 }),
      stock: Type.Integer({ minimum: 0 }),
      materials: Type.Array(Type.String()),
      colour: Type.String(),
      dimensions: Type.Object({
        widthCm: Type.Integer({ minimum: 1 }),
        depthCm: Type.Integer({ minimum: 1 }),
        heightCm: Type.Integer({ minimum: 1 }),
      }),
      specialEdition: Type.Object({
        name: Type.String(),
        description: Type.String(),
        priceCents: Type.Integer({ minimum: 1 }),
        badge: Type.String(),
        stock: Type.Integer({ minimum: 0 }),
        colour: Type.String(),
      }),
    }),
  ),
});
export type CatalogSeed = Static<typeof CatalogSeedSchema>;
export type ProductPage = Static<typeof ProductPageSchema>;
