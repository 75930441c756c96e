import { describe, expect, it } from 'vitest';
import { fts5Query, MAX_SEARCH_TERMS, searchTerms, tsQueries } from './search-terms.js';

describe('searchTerms', () => {
  it('keeps words of letters and digits, folded to lower case without accents', () => {
    expect(searchTerms('Bouclé  ARM-chair, 2 seats!')).toEqual([
      'boucle',
      'arm',
      'chair',
      '2',
      'seats',
    ]);
    expect(searchTerms('Łódź Ørsted straße')).toEqual(['lodz', 'orsted', 'straße']);
  });

  it('leaves out syntax: quotes, operators, column filters, brackets', () => {
    expect(searchTerms('"sofa" AND name:oak* NEAR(a b) -lamp ^x \'; drop')).toEqual([
      'sofa',
      'name',
      'oak',
      'near',
      'b',
      'lamp',
      'x',
      'drop',
    ]);
    expect(searchTerms('"*():^-')).toEqual([]);
  });

  it('drops stop words, but keeps an unfinished last word', () => {
    expect(searchTerms('the sofa for the living room')).toEqual(['sofa', 'living', 'room']);
    expect(searchTerms('sofa so')).toEqual(['sofa', 'so']);
    expect(searchTerms('sofa a')).toEqual(['sofa']);
  });

  it('keeps at most MAX_SEARCH_TERMS words of at most 40 characters', () => {
    expect(searchTerms('w '.repeat(20) + 'x'.repeat(60))).toHaveLength(MAX_SEARCH_TERMS);
    expect(searchTerms('y'.repeat(60))).toEqual(['y'.repeat(40)]);
  });
});

describe('fts5Query', () => {
  it('quotes every term and makes the last one (of two characters or more) a prefix', () => {
    expect(fts5Query(['dining', 'ta'])).toBe('"dining" "ta"*');
    expect(fts5Query(['sofa', 'x'])).toBe('"sofa" "x"');
    expect(fts5Query(['say"hi'])).toBe('"say""hi"*');
  });
});

describe('tsQueries', () => {
  it('joins the terms with & and makes the last one a prefix', () => {
    expect(tsQueries(['dining', 'ta'])).toEqual({ english: 'dining & ta:*', simple: '' });
    expect(tsQueries(['sofa', 'x'])).toEqual({ english: 'sofa & x', simple: '' });
  });

  it('puts a stop-word prefix apart, for the simple configuration', () => {
    expect(tsQueries(['velvet', 'so'])).toEqual({ english: 'velvet', simple: 'so:*' });
    expect(tsQueries(['so'])).toEqual({ english: '', simple: 'so:*' });
  });
});
