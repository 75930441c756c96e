import { isStopWord, wordsOf } from './search-terms.js';

/**
 * The catalog's words (names, descriptions, departments, kinds, colour names, materials) with
 * how many products use each: the source of spelling suggestions and of term completions
 * (docs/decisions/009-search.md).
 */
export interface Vocabulary {
  /** Word → number of products whose text holds it. */
  frequency: ReadonlyMap<string, number>;
  /** The words in code-unit order, for prefix look-ups. */
  sorted: readonly string[];
}

/** A word worth suggesting: two characters or more, with a letter in it, not a stop word. */
const isWord = (word: string) => word.length >= 2 && /\p{L}/u.test(word) && !isStopWord(word);

/**
 * Builds the vocabulary from each product's texts. Texts repeat across products (one
 * department name, copied descriptions), so each distinct text is cut into words once.
 */
export function buildVocabulary(products: Iterable<readonly string[]>): Vocabulary {
  const frequency = new Map<string, number>();
  const wordsOfText = new Map<string, readonly string[]>();
  for (const texts of products) {
    const words = new Set<string>();
    for (const text of texts) {
      let cut = wordsOfText.get(text);
      if (cut === undefined) {
        cut = wordsOf(text).filter(isWord);
        wordsOfText.set(text, cut);
      }
      for (const word of cut) words.add(word);
    }
    for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  }
  return { frequency, sorted: [...frequency.keys()].sort() };
}

/** The words starting with `prefix`, most frequent first (then alphabetical), at most `limit`. */
export function completions(vocabulary: Vocabulary, prefix: string, limit: number): string[] {
  const { sorted, frequency } = vocabulary;
  const found: string[] = [];
  for (let i = lowerBound(sorted, prefix); i < sorted.length; i++) {
    const word = sorted[i] as string;
    if (!word.startsWith(prefix)) break;
    found.push(word);
  }
  return found
    .sort((a, b) => (frequency.get(b) ?? 0) - (frequency.get(a) ?? 0) || (a < b ? -1 : 1))
    .slice(0, limit);
}

/** How far a misspelling may be from a word: none for two letters, one up to five, then two. */
export function allowedDistance(length: number): number {
  if (length <= 2) return 0;
  return length <= 5 ? 1 : 2;
}

/**
 * The query's terms with each unknown one replaced by the closest catalog word (fewest edits,
 * a swap of neighbours counting as one; ties go to the more frequent word). A term is known
 * when it is a catalog word, or, as the last term, the start of one. Answers undefined when no
 * term changed.
 */
export function correctSpelling(
  vocabulary: Vocabulary,
  terms: readonly string[],
): string[] | undefined {
  let changed = false;
  const corrected = terms.map((term, index) => {
    if (vocabulary.frequency.has(term)) return term;
    if (index === terms.length - 1 && completions(vocabulary, term, 1).length > 0) return term;
    const closest = closestWord(vocabulary, term);
    if (closest === undefined) return term;
    changed = true;
    return closest;
  });
  return changed ? corrected : undefined;
}

function closestWord(vocabulary: Vocabulary, term: string): string | undefined {
  const allowed = allowedDistance(term.length);
  if (allowed === 0) return undefined;
  let best: { word: string; distance: number; frequency: number } | undefined;
  for (const [word, frequency] of vocabulary.frequency) {
    if (Math.abs(word.length - term.length) > allowed) continue;
    const distance = editDistance(term, word, allowed);
    if (distance > allowed) continue;
    if (
      best === undefined ||
      distance < best.distance ||
      (distance === best.distance &&
        (frequency > best.frequency || (frequency === best.frequency && word < best.word)))
    ) {
      best = { word, distance, frequency };
    }
  }
  return best?.word;
}

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions and swaps of
 * neighbours); stops early and answers `max + 1` once the distance must exceed `max`.
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] as number) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] as number, max + 1);
}

function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as string) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
