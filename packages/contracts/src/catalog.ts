import { Type, type Static } from 'typebox';

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
  },
  { $id: 'Product' },
);
export type Product = Static<typeof ProductSchema>;

export const PRODUCT_SORTS = [
  'featured',
  'price-asc',
  'price-desc',
  'name-asc',
  'name-desc',
] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];
export const MAX_PAGE_SIZE = 48;
export const DEFAULT_PAGE_SIZE = 24;

export const DepartmentSlugParamsSchema = Type.Object({
  slug: Type.String({ pattern: '^[a-z0-9-]{1,40}$', description: 'Department slug' }),
});

export const ListProductsQuerySchema = Type.Object({
  sort: Type.Optional(
    Type.Union(
      PRODUCT_SORTS.map((sort) => Type.Literal(sort)),
      { default: 'featured' },
    ),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 0 })),
});
export type ListProductsQuery = Static<typeof ListProductsQuerySchema>;

export const ProductIdParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Product id' }),
});

export const DepartmentListSchema = Type.Object({ departments: Type.Array(DepartmentSchema) });

export const ProductPageSchema = Type.Object({
  department: DepartmentSchema,
  products: Type.Array(ProductSummarySchema),
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  offset: Type.Integer({ minimum: 0 }),
  sort: Type.String(),
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
