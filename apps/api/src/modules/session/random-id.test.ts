import { randomIdPattern } from '@showroom/contracts/random-id';
import { describe, expect, it } from 'vitest';
import { randomId, recordId } from './random-id.js';

describe('randomId', () => {
  it("makes ids the contract's pattern accepts, and the pattern refuses other prefixes", () => {
    const id = randomId('ses');
    expect(id).toMatch(new RegExp(randomIdPattern('ses')));
    expect(id).not.toMatch(new RegExp(randomIdPattern('pm')));
    expect(randomId('ses')).not.toBe(id);
  });
});

describe('recordId', () => {
  const at = new Date(Date.UTC(2026, 11, 7, 18, 30));

  it("makes ids the contract's pattern accepts", () => {
    expect(recordId('ord', at)).toMatch(new RegExp(randomIdPattern('ord')));
    expect(recordId('ol', new Date(0))).toMatch(new RegExp(randomIdPattern('ol')));
    expect(recordId('pay', new Date(2 ** 48 - 1))).toMatch(new RegExp(randomIdPattern('pay')));
  });

  it('sorts ids of later milliseconds after earlier ones, compared byte by byte as SQLite does', () => {
    // Times that cross every character of the time part, including base64url's '-' and '_',
    // whose places in byte order differ from their places in base64url's own order.
    const times = [0, 1, 9, 10, 36, 37, 63, 64, 4095, 4096, Date.UTC(2026, 0, 1), at.getTime()];
    const ids = [...times, 2 ** 48 - 1].map((time) => recordId('ord', new Date(time)));
    const byBytes = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(byBytes).toEqual(ids);
  });

  it('refuses a time its 8 characters cannot hold', () => {
    expect(() => recordId('ord', new Date(-1))).toThrow(RangeError);
    expect(() => recordId('ord', new Date(2 ** 48))).toThrow(RangeError);
    expect(() => recordId('ord', new Date(Number.NaN))).toThrow(RangeError);
  });

  it('keeps 14 random characters after the time, every bit of them random', () => {
    const ids = Array.from({ length: 1000 }, () => recordId('ord', at));
    const times = new Set(ids.map((id) => id.slice('ord_'.length, 'ord_'.length + 8)));
    expect(times.size).toBe(1);
    const randomParts = ids.map((id) => id.slice('ord_'.length + 8));
    expect(new Set(randomParts).size).toBe(1000);
    expect(randomParts[0]).toHaveLength(14);
    // With fewer random bits than 14 characters hold, the last character would take at most
    // 4 of base64url's 64 values (80 bits fill 13 characters and 2 bits of the 14th).
    const lastCharacters = new Set(randomParts.map((part) => part.at(-1)));
    expect(lastCharacters.size).toBeGreaterThan(16);
  });
});
