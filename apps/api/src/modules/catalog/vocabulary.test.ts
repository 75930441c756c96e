import { describe, expect, it } from 'vitest';
import {
  allowedDistance,
  buildVocabulary,
  completions,
  correctSpelling,
  editDistance,
} from './vocabulary.js';

const vocabulary = buildVocabulary([
  ['Haven Sofa', 'A deep sofa for the family.', 'grey', 'Sofas'],
  ['Camden Chesterfield Sofa', 'Buttoned leather.', 'brown', 'Sofas'],
  ['Nook Loveseat', 'Sits beside any sofa; soft velvet.', 'blue', 'Sofas'],
  ['Oak Table', 'Solid oak.', 'natural', 'Tables'],
]);

describe('buildVocabulary', () => {
  it('counts the products using each word, without stop words or one-letter words', () => {
    expect(vocabulary.frequency.get('sofa')).toBe(3);
    expect(vocabulary.frequency.get('sofas')).toBe(3);
    expect(vocabulary.frequency.get('oak')).toBe(1);
    expect(vocabulary.frequency.has('the')).toBe(false);
    expect(vocabulary.frequency.has('a')).toBe(false);
  });
});

describe('completions', () => {
  it('answers the words starting with a prefix, most used first', () => {
    expect(completions(vocabulary, 'so', 3)).toEqual(['sofa', 'sofas', 'soft']);
    expect(completions(vocabulary, 'sofa', 5)).toEqual(['sofa', 'sofas']);
    expect(completions(vocabulary, 'zz', 5)).toEqual([]);
  });
});

describe('editDistance', () => {
  it.each([
    ['sofa', 'sofa', 0],
    ['sofe', 'sofa', 1],
    ['sfoa', 'sofa', 1],
    ['chesterfeld', 'chesterfield', 1],
    ['kitten', 'sitting', 3],
    ['', 'oak', 3],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });

  it('stops once the distance passes the maximum', () => {
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('correctSpelling', () => {
  it('replaces each unknown word by the closest, most used catalog word', () => {
    expect(correctSpelling(vocabulary, ['sofe'])).toEqual(['sofa']);
    expect(correctSpelling(vocabulary, ['leathr', 'chesterfeld'])).toEqual([
      'leather',
      'chesterfield',
    ]);
  });

  it('keeps known words and a last word that starts a catalog word', () => {
    expect(correctSpelling(vocabulary, ['velvet', 'sofe'])).toEqual(['velvet', 'sofa']);
    expect(correctSpelling(vocabulary, ['velvet', 'ches'])).toBeUndefined();
  });

  it('answers undefined when nothing is close enough or nothing changed', () => {
    expect(correctSpelling(vocabulary, ['qqqqqq'])).toBeUndefined();
    expect(correctSpelling(vocabulary, ['oak', 'sofa'])).toBeUndefined();
    expect(correctSpelling(vocabulary, ['ok'])).toBeUndefined();
  });

  it('allows one edit up to five letters, then two', () => {
    expect([2, 3, 5, 6, 12].map(allowedDistance)).toEqual([0, 1, 1, 2, 2]);
  });
});
