import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { createProductFinder, type ProductMatches } from './product-finder.js';
import { SUMMARY_COLUMNS, toSummary, type ProductSummaryRow } from './product-rows.js';
import { searchDialectOf } from './search-dialect.js';
import { searchTerms } from './search-terms.js';
import { buildVocabulary, completions, correctSpelling, type Vocabulary } from './vocabulary.js';
import type { ProductFilters, ProductSummary } from '@showroom/contracts/catalog';
import {
  MAX_SUGGESTIONS,
  MAX_TERM_SUGGESTIONS,
  POPULAR_COUNT,
  type SearchSort,
  type SearchSuggestions,
} from '@showroom/contracts/search';

/** How long the vocabulary is kept before it is read again (the catalog changes only by seed). */
const VOCABULARY_TTL_MS = 5 * 60_000;

export interface SearchRequest {
  q: string;
  filters: ProductFilters;
  sort: SearchSort;
  limit: number;
  offset: number;
}

export interface SearchOutcome extends ProductMatches {
  suggestion: string | null;
  popular: ProductSummary[];
}

export type CatalogSearch = ReturnType<typeof createCatalogSearch>;

/**
 * Catalog search (docs/decisions/009-search.md): the text match of the database at hand
 * (search-dialect.ts) with the listing's filters and facets, a spelling suggestion and popular
 * products when nothing matches, and suggestions while typing.
 */
export function createCatalogSearch(db: Kysely<Database>, now: () => number = Date.now) {
  const findProducts = createProductFinder(db);
  const dialect = searchDialectOf(db);
  let vocabulary: { readAt: number; words: Promise<Vocabulary> } | undefined;

  const currentVocabulary = (): Promise<Vocabulary> => {
    if (vocabulary === undefined || now() - vocabulary.readAt > VOCABULARY_TTL_MS) {
      const read = { readAt: now(), words: readVocabulary(db) };
      // A failed read is not kept: the next request reads again.
      read.words.catch(() => {
        if (vocabulary === read) vocabulary = undefined;
      });
      vocabulary = read;
    }
    return vocabulary.words;
  };

  /** The query with misspelt words corrected, when that finds something with the same filters. */
  const spellingSuggestion = async (
    terms: readonly string[],
    filters: ProductFilters,
  ): Promise<string | null> => {
    if (terms.length === 0) return null;
    const corrected = correctSpelling(await currentVocabulary(), terms);
    if (corrected === undefined) return null;
    const found = await findProducts({
      terms: corrected,
      filters,
      sort: 'featured',
      limit: 1,
      offset: 0,
    });
    return found.total > 0 ? corrected.join(' ') : null;
  };

  /** Products in stock, most units ordered first, then in shop order. */
  const popularProducts = async (): Promise<ProductSummary[]> => {
    const { rows } = await sql<ProductSummaryRow>`select ${SUMMARY_COLUMNS}
      from products p join special_editions se on se.product_id = p.id
      left join (select product_id, sum(quantity) as sold from order_lines group by product_id)
        ordered on ordered.product_id = p.id
      where p.stock > 0
      order by coalesce(ordered.sold, 0) desc, p.id
      limit ${POPULAR_COUNT}`.execute(db);
    return rows.map(toSummary);
  };

  return {
    async search(request: SearchRequest): Promise<SearchOutcome> {
      const terms = searchTerms(request.q);
      const found = await findProducts({ ...request, terms });
      if (found.total > 0) return { ...found, suggestion: null, popular: [] };
      const [suggestion, popular] = await Promise.all([
        spellingSuggestion(terms, request.filters),
        popularProducts(),
      ]);
      return { ...found, suggestion, popular };
    },

    /** Completions of the last word from the catalog's words, then the best matching products. */
    async suggest(q: string): Promise<Omit<SearchSuggestions, 'query'>> {
      const terms = searchTerms(q);
      const last = terms.at(-1);
      if (last === undefined) return { terms: [], products: [] };
      const before = terms.slice(0, -1);
      const words = completions(await currentVocabulary(), last, MAX_TERM_SUGGESTIONS + 1)
        .filter((word) => word !== last)
        .slice(0, MAX_TERM_SUGGESTIONS)
        .map((word) => [...before, word].join(' '));
      const text = dialect.textMatch(terms);
      const { rows } = await sql<{ id: number; name: string; department: string }>`
        select p.id, p.name, p.department_slug as department from ${text.from}
        where ${text.where} order by ${text.score} desc, p.id
        limit ${MAX_SUGGESTIONS - words.length}`.execute(db);
      return { terms: words, products: rows };
    },
  };
}

/** Every product's searchable texts, cut into the vocabulary. */
async function readVocabulary(db: Kysely<Database>): Promise<Vocabulary> {
  const { rows } = await sql<{
    name: string;
    kind: string;
    description: string;
    materials: string;
    colour_name: string;
    department: string;
  }>`select p.name, p.kind, p.description, p.materials, p.colour_name, d.name as department
    from products p join departments d on d.slug = p.department_slug`.execute(db);
  return buildVocabulary(
    rows.map((row) => [
      row.name,
      row.kind,
      row.description,
      row.materials,
      row.colour_name,
      row.department,
    ]),
  );
}
