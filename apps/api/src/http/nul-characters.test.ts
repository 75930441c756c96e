import { describe, expect, it } from 'vitest';
import { jsonMayHoldNul, pathOfNul } from './nul-characters.js';

describe('NUL characters', () => {
  it('names the path of the first string holding U+0000', () => {
    expect(pathOfNul({ items: [{ name: 'ok' }, { name: 'a\u0000b' }] })).toEqual([
      'items',
      '1',
      'name',
    ]);
    expect(pathOfNul('\u0000')).toEqual([]);
    expect(pathOfNul({ flags: { ok: 1, 'k\u0000': true } })).toEqual(['flags', 'k\u0000']);
    expect(pathOfNul({ items: [{ name: 'ok' }], n: 1, b: null })).toBeNull();
  });

  it('tells from the JSON text whether a parsed value can hold U+0000', () => {
    const values = [{ a: 'x\u0000' }, { a: ['\u0000'] }, { 'k\u0000': 1 }, '\u0000'];
    for (const value of values) expect(jsonMayHoldNul(JSON.stringify(value))).toBe(true);
    expect(jsonMayHoldNul(JSON.stringify({ a: 'x', b: ['\u0001', 'u0000'] }))).toBe(false);
    // An escaped backslash before "u0000" is not NUL, but the text is then read in full.
    expect(jsonMayHoldNul(JSON.stringify({ a: '\\u0000' }))).toBe(true);
  });
});
