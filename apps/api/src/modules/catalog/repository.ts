import type { Kysely, Selectable } from 'kysely';
import { prepareQuery } from '../../db/prepared.js';
import type { Database, ProductTable } from '../../db/schema.js';
import type { Department, Product, ProductSort, ProductSummary } from '@showroom/contracts/catalog';

type ProductRow = Selectable<ProductTable> & {
  se_name: string;
  se_description: string;
  se_price_cents: number;
  se_badge: string;
  se_stock: number;
};

const SORT_ORDER: Record<
  ProductSort,
  { column: 'id' | 'price_cents' | 'name'; direction: 'asc' | 'desc' }
> = {
  featured: { column: 'id', direction: 'asc' },
  'price-asc': { column: 'price_cents', direction: 'asc' },
  'price-desc': { column: 'price_cents', direction: 'desc' },
  'name-asc': { column: 'name', direction: 'asc' },
  'name-desc': { column: 'name', direction: 'desc' },
};

export interface ProductPage {
  products: ProductSummary[];
  total: number;
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;

export function createCatalogRepository(db: Kysely<Database>) {
  const productQuery = () =>
    db
      .selectFrom('products as p')
      .innerJoin('special_editions as se', 'se.product_id', 'p.id')
      .selectAll('p')
      .select([
        'se.name as se_name',
        'se.description as se_description',
        'se.price_cents as se_price_cents',
        'se.badge as se_badge',
        'se.stock as se_stock',
      ]);

  // The product page's read, compiled once: it is the hottest catalog request.
  const productById = prepareQuery(db, (id: number) => productQuery().where('p.id', '=', id));

  return {
    async listDepartments(): Promise<Department[]> {
      const rows = await db
        .selectFrom('departments as d')
        .leftJoin('products as p', 'p.department_slug', 'd.slug')
        .select(['d.slug', 'd.name', 'd.description', 'd.position'])
        .select((eb) => eb.fn.count<string | number>('p.id').as('product_count'))
        .groupBy(['d.slug', 'd.name', 'd.description', 'd.position'])
        .orderBy('d.position')
        .execute();
      return rows.map((row) => ({
        slug: row.slug,
        name: row.name,
        description: row.description,
        productCount: Number(row.product_count),
      }));
    },

    async findDepartment(slug: string): Promise<Department | undefined> {
      const departments = await this.listDepartments();
      return departments.find((department) => department.slug === slug);
    },

    async listProducts(
      slug: string,
      options: { sort: ProductSort; limit: number; offset: number },
    ): Promise<ProductPage> {
      const order = SORT_ORDER[options.sort];
      const [rows, count] = await Promise.all([
        productQuery()
          .where('p.department_slug', '=', slug)
          .orderBy(`p.${order.column}`, order.direction)
          .orderBy('p.id')
          .limit(options.limit)
          .offset(options.offset)
          .execute(),
        db
          .selectFrom('products')
          .where('department_slug', '=', slug)
          .select((eb) => eb.fn.countAll<string | number>().as('total'))
          .executeTakeFirstOrThrow(),
      ]);
      return { products: rows.map(toSummary), total: Number(count.total) };
    },

    async findProduct(id: number): Promise<Product | undefined> {
      const [row] = await productById(undefined, id);
      return row ? toProduct(row) : undefined;
    },
  };
}

function toSummary(row: ProductRow): ProductSummary {
  return {
    id: row.id,
    department: row.department_slug,
    name: row.name,
    kind: row.kind,
    priceCents: row.price_cents,
    stock: row.stock,
    colour: row.colour,
    materials: JSON.parse(row.materials) as string[],
    specialEdition: { priceCents: row.se_price_cents, badge: row.se_badge, stock: row.se_stock },
  };
}

function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    department: row.department_slug,
    name: row.name,
    kind: row.kind,
    description: row.description,
    priceCents: row.price_cents,
    stock: row.stock,
    colour: row.colour,
    materials: JSON.parse(row.materials) as string[],
    dimensions: { widthCm: row.width_cm, depthCm: row.depth_cm, heightCm: row.height_cm },
    specialEdition: {
      name: row.se_name,
      description: row.se_description,
      priceCents: row.se_price_cents,
      badge: row.se_badge,
      stock: row.se_stock,
    },
  };
}
