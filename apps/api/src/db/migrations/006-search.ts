import { sql, type Kysely } from 'kysely';
import { colourName } from '@showroom/contracts/colours';
import { isPostgres } from '../dialect.js';

/**
 * Full-text search over the catalog (docs/decisions/009-search.md): each product's colour name
 * beside its hex colour, and a search index over name, department, kind, colour name, materials
 * and description, kept in step with `products` by the database itself:
 *
 * - SQLite: an FTS5 table over `products` (external content) with triggers; Porter stemming over
 *   unicode61 with diacritics removed, and prefix indexes for 2- and 3-character prefixes.
 * - PostgreSQL: a generated `tsvector` column (English stemming; name weight A, department,
 *   kind, colour and materials B, description C) with a GIN index. PostgreSQL has no
 *   diacritic folding without the unaccent extension, so the column folds the common Latin
 *   accents itself (`translate`) and the api folds the query's.
 */
const SEARCHED = ['name', 'department_slug', 'kind', 'colour_name', 'materials', 'description'];

/** The accented letters the PostgreSQL document folds, and what they fold to. */
const ACCENTED = 'àáâãäåāçćčèéêëēęìíîïīłñńòóôõöøōśšùúûüūýÿžźż';
const UNACCENTED = 'aaaaaaaccceeeeeeiiiiilnnooooooossuuuuuyyzzz';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('colour_name', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  const colours = await sql<{ colour: string }>`select distinct colour from products`.execute(db);
  for (const { colour } of colours.rows) {
    await sql`update products set colour_name = ${colourName(colour)} where colour = ${colour}`.execute(
      db,
    );
  }

  if (isPostgres(db)) {
    const folded = (text: string) =>
      `to_tsvector('english', translate(lower(${text}), '${ACCENTED}', '${UNACCENTED}'))`;
    const document = [
      `setweight(${folded('name')}, 'A')`,
      `setweight(${folded(`department_slug || ' ' || kind || ' ' || colour_name || ' ' || materials`)}, 'B')`,
      `setweight(${folded('description')}, 'C')`,
    ].join(' || ');
    await sql
      .raw(
        `alter table products add column search_vector tsvector generated always as (${document}) stored`,
      )
      .execute(db);
    await sql`create index products_search_idx on products using gin (search_vector)`.execute(db);
    return;
  }

  const columns = SEARCHED.join(', ');
  const values = (row: 'new' | 'old') => SEARCHED.map((column) => `${row}.${column}`).join(', ');
  const statements = [
    `create virtual table products_fts using fts5(${columns}, content='products',
       content_rowid='id', tokenize='porter unicode61 remove_diacritics 2', prefix='2 3')`,
    `create trigger products_fts_insert after insert on products begin
       insert into products_fts (rowid, ${columns}) values (new.id, ${values('new')});
     end`,
    `create trigger products_fts_delete after delete on products begin
       insert into products_fts (products_fts, rowid, ${columns})
         values ('delete', old.id, ${values('old')});
     end`,
    // Only a change to a searched column re-indexes: stock updates at checkout do not.
    `create trigger products_fts_update after update of id, ${columns} on products begin
       insert into products_fts (products_fts, rowid, ${columns})
         values ('delete', old.id, ${values('old')});
       insert into products_fts (rowid, ${columns}) values (new.id, ${values('new')});
     end`,
    `insert into products_fts (products_fts) values ('rebuild')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index products_search_idx`.execute(db);
    await db.schema.alterTable('products').dropColumn('search_vector').execute();
  } else {
    for (const trigger of ['products_fts_insert', 'products_fts_delete', 'products_fts_update']) {
      await sql.raw(`drop trigger ${trigger}`).execute(db);
    }
    await sql`drop table products_fts`.execute(db);
  }
  await db.schema.alterTable('products').dropColumn('colour_name').execute();
}
