import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { searchDialectOf } from './search-dialect.js';
import { SUMMARY_COLUMNS, toSummary, type ProductSummaryRow } from './product-rows.js';
import type {
  ProductFacets,
  ProductFilters,
  ProductSort,
  ProductSummary,
} from '@showroom/contracts/catalog';
import type { ColourName } from '@showroom/contracts/colours';
import type { SearchSort } from '@showroom/contracts/search';

type Fragment = RawBuilder<unknown>;

/** What a listing or a search asks for (docs/decisions/009-search.md). */
export interface ProductQuery {
  /** Only this department's products. */
  department?: string;
  /** Only products matching every term (search-terms.ts); an empty list matches nothing. */
  terms?: readonly string[];
  filters: ProductFilters;
  /** `relevance` needs terms; without them it is `featured`. */
  sort: SearchSort;
  limit: number;
  offset: number;
}

export interface ProductMatches {
  products: ProductSummary[];
  total: number;
  facets: ProductFacets;
}

const EMPTY_FACETS: ProductFacets = {
  colours: [],
  materials: [],
  price: { min: null, max: null },
  inStock: 0,
};

const SORT_ORDER: Record<ProductSort, string> = {
  featured: 'p.id asc',
  'price-asc': 'p.price_cents asc, p.id',
  'price-desc': 'p.price_cents desc, p.id',
  'name-asc': 'p.name asc, p.id',
  'name-desc': 'p.name desc, p.id',
};

/** A filter left out of its own facet's counts. */
type FacetName = 'price' | 'colour' | 'material' | 'stock';

type Count = number | string | null;

/**
 * Listings and search over one set of SQL: the products in scope (a department, the text
 * match, or both) narrowed by the filters, a page of them in the chosen order, their total and
 * the facets. Five statements over the same scope: the page, the total with the in-stock count,
 * colours, materials and the price range (each facet without its own filter).
 */
export function createProductFinder(db: Kysely<Database>) {
  const dialect = searchDialectOf(db);

  return async function findProducts(query: ProductQuery): Promise<ProductMatches> {
    if (query.terms?.length === 0) return { products: [], total: 0, facets: EMPTY_FACETS };
    const text = query.terms ? dialect.textMatch(query.terms) : undefined;
    const from = text?.from ?? sql`products p`;
    const scope: Fragment[] = [];
    if (text) scope.push(text.where);
    if (query.department !== undefined) scope.push(sql`p.department_slug = ${query.department}`);

    const conditions = filterConditions(query.filters, dialect.materialsOf('chosen'));
    const where = (without?: FacetName) => {
      const all = [...scope, ...conditions.filter((c) => c.facet !== without).map((c) => c.sql)];
      return all.length > 0 ? sql`where ${sql.join(all, sql` and `)}` : sql``;
    };
    const order =
      query.sort === 'relevance'
        ? text
          ? sql`${text.score} desc, p.id`
          : sql.raw(SORT_ORDER.featured)
        : sql.raw(SORT_ORDER[query.sort]);

    const [page, counts, colours, materials, price] = await Promise.all([
      sql<ProductSummaryRow>`select ${SUMMARY_COLUMNS}
        from ${from} join special_editions se on se.product_id = p.id
        ${where()} order by ${order} limit ${query.limit} offset ${query.offset}`.execute(db),
      sql<{ n: Count; in_stock: Count }>`select count(*) as n,
          sum(case when p.stock > 0 then 1 else 0 end) as in_stock
        from ${from} ${where('stock')}`.execute(db),
      sql<{ value: ColourName; n: Count }>`select p.colour_name as value, count(*) as n
        from ${from} ${where('colour')} group by p.colour_name`.execute(db),
      sql<{ value: string; n: Count }>`select material.value as value, count(*) as n
        from ${from} cross join ${dialect.materialsOf('material')}
        ${where('material')} group by material.value`.execute(db),
      sql<{ low: number | null; high: number | null }>`select min(p.price_cents) as low,
          max(p.price_cents) as high
        from ${from} ${where('price')}`.execute(db),
    ]);

    const all = Number(counts.rows[0]?.n ?? 0);
    const inStock = Number(counts.rows[0]?.in_stock ?? 0);
    const range = price.rows[0];
    return {
      products: page.rows.map(toSummary),
      total: query.filters.inStock ? inStock : all,
      facets: {
        colours: facetValues(colours.rows),
        materials: facetValues(materials.rows),
        price: { min: range?.low ?? null, max: range?.high ?? null },
        inStock,
      },
    };
  };
}

export type FindProducts = ReturnType<typeof createProductFinder>;

function filterConditions(
  filters: ProductFilters,
  chosenMaterials: Fragment,
): { facet: FacetName; sql: Fragment }[] {
  const conditions: { facet: FacetName; sql: Fragment }[] = [];
  if (filters.minPrice !== undefined) {
    conditions.push({ facet: 'price', sql: sql`p.price_cents >= ${filters.minPrice}` });
  }
  if (filters.maxPrice !== undefined) {
    conditions.push({ facet: 'price', sql: sql`p.price_cents <= ${filters.maxPrice}` });
  }
  if (filters.colour?.length) {
    conditions.push({ facet: 'colour', sql: sql`p.colour_name in (${sql.join(filters.colour)})` });
  }
  if (filters.material?.length) {
    conditions.push({
      facet: 'material',
      sql: sql`exists (select 1 from ${chosenMaterials}
        where chosen.value in (${sql.join(filters.material)}))`,
    });
  }
  if (filters.inStock) conditions.push({ facet: 'stock', sql: sql`p.stock > 0` });
  return conditions;
}

/** Facet rows as values with counts, most first, then by name (the same on both databases). */
function facetValues<T extends string>(rows: { value: T; n: Count }[]) {
  return rows
    .map((row) => ({ value: row.value, count: Number(row.n) }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}
