import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('departments')
    .addColumn('slug', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('department_slug', 'text', (col) =>
      col.notNull().references('departments.slug').onDelete('restrict'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('price_cents', 'integer', (col) => col.notNull().check(sqlPositive('price_cents')))
    .addColumn('stock', 'integer', (col) => col.notNull().check(sqlNonNegative('stock')))
    .addColumn('materials', 'text', (col) => col.notNull())
    .addColumn('colour', 'text', (col) => col.notNull())
    .addColumn('width_cm', 'integer', (col) => col.notNull())
    .addColumn('depth_cm', 'integer', (col) => col.notNull())
    .addColumn('height_cm', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('products_department_idx')
    .on('products')
    .column('department_slug')
    .execute();

  await db.schema
    .createTable('special_editions')
    .addColumn('product_id', 'integer', (col) =>
      col.primaryKey().references('products.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('price_cents', 'integer', (col) => col.notNull().check(sqlPositive('price_cents')))
    .addColumn('badge', 'text', (col) => col.notNull())
    .addColumn('stock', 'integer', (col) => col.notNull().check(sqlNonNegative('stock')))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('special_editions').execute();
  await db.schema.dropTable('products').execute();
  await db.schema.dropTable('departments').execute();
}

function sqlPositive(column: string) {
  return sql`${sql.ref(column)} > 0`;
}

function sqlNonNegative(column: string) {
  return sql`${sql.ref(column)} >= 0`;
}
