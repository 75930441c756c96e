import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import { fts5Query, tsQueries } from './search-terms.js';

type Fragment = RawBuilder<unknown>;

/**
 * Products matching every search term, as one dialect finds them: FROM items that bring
 * `products p`, the condition, and a relevance score (higher is better).
 */
export interface TextMatch {
  from: Fragment;
  where: Fragment;
  score: Fragment;
}

/**
 * The two places search SQL differs between SQLite and PostgreSQL (docs/decisions/009-search.md):
 * the full-text match and reading a product's materials (a JSON array in a text column) as rows.
 */
export interface SearchDialect {
  textMatch(terms: readonly string[]): TextMatch;
  /** A FROM item of `p`'s materials, one row per material, in column `<alias>.value`. */
  materialsOf(alias: string): Fragment;
}

/**
 * SQLite: the FTS5 table of migration 006 (external content over products), ranked by bm25
 * with the name weighted above department, kind, colour and materials, above description.
 */
const sqliteSearch: SearchDialect = {
  textMatch: (terms) => ({
    from: sql`products_fts join products p on p.id = products_fts.rowid`,
    where: sql`products_fts match ${fts5Query(terms)}`,
    // Weights in the FTS columns' order: name, department_slug, kind, colour_name, materials,
    // description. bm25 is lower for better matches.
    score: sql`-bm25(products_fts, 10.0, 4.0, 4.0, 4.0, 4.0, 1.0)`,
  }),
  materialsOf: (alias) => sql`json_each(p.materials) as ${sql.id(alias)}`,
};

/** PostgreSQL: the weighted `search_vector` column of migration 006, ranked by ts_rank. */
const postgresSearch: SearchDialect = {
  textMatch: (terms) => {
    const { english, simple } = tsQueries(terms);
    let query = sql`to_tsquery('english', ${english})`;
    if (simple !== '') {
      query =
        english === ''
          ? sql`to_tsquery('simple', ${simple})`
          : sql`(${query} && to_tsquery('simple', ${simple}))`;
    }
    return {
      from: sql`products p cross join ${query} as query`,
      where: sql`p.search_vector @@ query`,
      score: sql`ts_rank(p.search_vector, query)`,
    };
  },
  materialsOf: (alias) =>
    sql`jsonb_array_elements_text(p.materials::jsonb) as ${sql.id(alias)}(value)`,
};

export function searchDialectOf<T>(db: Kysely<T>): SearchDialect {
  return isPostgres(db) ? postgresSearch : sqliteSearch;
}
