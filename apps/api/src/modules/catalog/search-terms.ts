/**
 * What the shopper typed, made safe for the full-text engines (docs/decisions/009-search.md):
 * the query is cut into words of letters and digits only, so no quote, operator, column filter
 * or bracket of FTS5 or tsquery syntax ever reaches the database; each word is then written as a
 * quoted term (FTS5) or a bare lexeme (tsquery), all of them required, the last one a prefix.
 * English stop words are left out on both databases, as PostgreSQL's `english` configuration
 * leaves them out of its index: "the sofa" finds the same products on SQLite.
 */

/** PostgreSQL's `english` stop words (Snowball's list). */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself ' +
    'she her hers herself it its itself they them their theirs themselves what which who whom ' +
    'this that these those am is are was were be been being have has had having do does did ' +
    'doing a an the and but if or because as until while of at by for with about against ' +
    'between into through during before after above below to from up down in out on off over ' +
    'under again further then once here there when where why how all any both each few more ' +
    'most other some such no nor not only own same so than too very s t can will just don ' +
    'should now'
  ).split(' '),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Words of a query that count; the rest are ignored. */
export const MAX_SEARCH_TERMS = 8;
/** Longest word kept (longer ones are cut): no catalog word is longer. */
export const MAX_TERM_LENGTH = 40;
/** A last word shorter than this is matched whole, not as a prefix ("a" would match everything). */
export const MIN_PREFIX_LENGTH = 2;

/** Lower case without diacritics: "Bouclé" → "boucle" (what both indexes store). */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .replace(/ø/g, 'o');
}

/** The words of `text`, folded: runs of letters and digits; everything else separates. */
export function wordsOf(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The query's terms: its first MAX_SEARCH_TERMS words that are not stop words, each at most
 * MAX_TERM_LENGTH long. A last word that would be a prefix stays even when it is a stop word:
 * it is most likely unfinished ("so" of "sofa").
 */
export function searchTerms(query: string): string[] {
  const words = wordsOf(query);
  return words
    .filter(
      (word, index) =>
        !isStopWord(word) || (index === words.length - 1 && word.length >= MIN_PREFIX_LENGTH),
    )
    .slice(0, MAX_SEARCH_TERMS)
    .map((word) => word.slice(0, MAX_TERM_LENGTH));
}

function isPrefix(terms: readonly string[], index: number): boolean {
  return index === terms.length - 1 && (terms[index]?.length ?? 0) >= MIN_PREFIX_LENGTH;
}

/** An FTS5 MATCH expression: `"dining" "ta"*` (quoted phrases, implicit AND). */
export function fts5Query(terms: readonly string[]): string {
  return terms
    .map((term, index) => `"${term.replaceAll('"', '""')}"${isPrefix(terms, index) ? '*' : ''}`)
    .join(' ');
}

/**
 * to_tsquery expressions: `dining & ta:*` for the `english` configuration (stemmed, stop words
 * dropped) and, when the last term is a stop word, that prefix apart (`so:*`) for `simple`,
 * which keeps it; either may be empty. Terms hold only letters and digits.
 */
export function tsQueries(terms: readonly string[]): { english: string; simple: string } {
  const last = terms.length - 1;
  const lexemes = terms.map(
    (term, index) => `${term.replace(/[^\p{L}\p{N}]/gu, '')}${isPrefix(terms, index) ? ':*' : ''}`,
  );
  const stopWordPrefix = isPrefix(terms, last) && isStopWord(terms[last] as string);
  return stopWordPrefix
    ? { english: lexemes.slice(0, last).join(' & '), simple: lexemes[last] as string }
    : { english: lexemes.join(' & '), simple: '' };
}
