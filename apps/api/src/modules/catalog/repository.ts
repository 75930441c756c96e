import { sql, type Kysely, type Selectable } from 'kysely';
import { createGenerationCache, dataGenerationOf } from '../../db/data-generation.js';
import { prepareQuery } from '../../db/prepared.js';
import { deepFreeze } from '../flags/deep-freeze.js';
import type { Database, ProductTable } from '../../db/schema.js';
import { createProductFinder, type ProductMatches } from './product-finder.js';
import { SUMMARY_COLUMNS, toSummary, type ProductSummaryRow } from './product-rows.js';
import type {
  Department,
  Product,
  ProductFilters,
  ProductSort,
  ProductSummary,
} from '@showroom/contracts/catalog';

type ProductRow = Omit<Selectable<ProductTable>, 'colour_name'> & {
  se_name: string;
  se_description: string;
  se_price_cents: number;
  se_badge: string;
  se_stock: number;
};

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;

export function createCatalogRepository(db: Kysely<Database>) {
  const findProducts = createProductFinder(db);
  const productQuery = () =>
    db
      .selectFrom('products as p')
      .innerJoin('special_editions as se', 'se.product_id', 'p.id')
      .select([
        'p.id',
        'p.department_slug',
        'p.name',
        'p.kind',
        'p.description',
        'p.price_cents',
        'p.stock',
        'p.colour',
        'p.materials',
        'p.width_cm',
        'p.depth_cm',
        'p.height_cm',
        'se.name as se_name',
        'se.description as se_description',
        'se.price_cents as se_price_cents',
        'se.badge as se_badge',
        'se.stock as se_stock',
      ]);

  // The product page's read, compiled once: it is the hottest catalog request. On SQLite the
  // products read are kept until their tables are written (db/data-generation.ts): an order's
  // stock update here, or any commit by another process.
  const productById = prepareQuery(db, (id: number) => productQuery().where('p.id', '=', id));
  const products = createGenerationCache<number, Product | undefined>(
    dataGenerationOf(db, ['products', 'special_editions']),
    10_000,
  );
  const departments = createGenerationCache<string, Department[]>(
    dataGenerationOf(db, ['departments', 'products']),
    1,
  );
  const readDepartments = async (): Promise<Department[]> => {
    const rows = await db
      .selectFrom('departments as d')
      .leftJoin('products as p', 'p.department_slug', 'd.slug')
      .select(['d.slug', 'd.name', 'd.description', 'd.position'])
      .select((eb) => eb.fn.count<string | number>('p.id').as('product_count'))
      .groupBy(['d.slug', 'd.name', 'd.description', 'd.position'])
      .orderBy('d.position')
      .execute();
    return deepFreeze(
      rows.map((row) => ({
        slug: row.slug,
        name: row.name,
        description: row.description,
        productCount: Number(row.product_count),
      })),
    );
  };

  return {
    listDepartments(): Promise<Department[]> {
      return departments.get('all', readDepartments);
    },

    async findDepartment(slug: string): Promise<Department | undefined> {
      const departments = await this.listDepartments();
      return departments.find((department) => department.slug === slug);
    },

    /** A page of a department's products, filtered, with its total and facets. */
    listProducts(
      slug: string,
      options: { sort: ProductSort; limit: number; offset: number; filters: ProductFilters },
    ): Promise<ProductMatches> {
      return findProducts({ department: slug, ...options });
    },

    findProduct(id: number): Promise<Product | undefined> {
      return products.get(id, async () => {
        const [row] = await productById(undefined, id);
        return row ? deepFreeze(toProduct(row)) : undefined;
      });
    },

    /**
     * The other products of a product's department in featured order (at most `limit`), or
     * undefined when there is no such product: what recommendations choose from.
     */
    async listRecommendationCandidates(
      id: number,
      limit: number,
    ): Promise<ProductSummary[] | undefined> {
      const product = await db
        .selectFrom('products')
        .select('department_slug')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!product) return undefined;
      const { rows } = await sql<ProductSummaryRow>`select ${SUMMARY_COLUMNS}
        from products p join special_editions se on se.product_id = p.id
        where p.department_slug = ${product.department_slug} and p.id <> ${id}
        order by p.id limit ${limit}`.execute(db);
      return rows.map(toSummary);
    },
  };
}

function toProduct(row: ProductRow): Product {
  const summary = toSummary(row);
  return {
    ...summary,
    description: row.description,
    dimensions: { widthCm: row.width_cm, depthCm: row.depth_cm, heightCm: row.height_cm },
    specialEdition: {
      ...summary.specialEdition,
      name: row.se_name,
      description: row.se_description,
    },
  };
}
