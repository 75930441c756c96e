import { randomIdPattern } from '@showroom/contracts/random-id';
import { describe, expect, it } from 'vitest';
import { randomId, recordId } from './random-id.js';

describe('randomId', () => {
  it("makes ids the contract's pattern accepts, and the pattern refuses other prefixes", () => {
    const id = randomId('ord');
    expect(id).toMatch(new RegExp(randomIdPattern('ord')));
    expect(id).not.toMatch(new RegExp(randomIdPattern('pm')));
    expect(randomId('ord')).not.toBe(id);
  });
});

describe('recordId', () => {
  it("makes ids the contract's pattern accepts", () => {
    expect(recordId('ord')).toMatch(new RegExp(randomIdPattern('ord')));
    expect(recordId('ol', 0)).toMatch(new RegExp(randomIdPattern('ol')));
    expect(recordId('pay', 2 ** 48 - 1)).toMatch(new RegExp(randomIdPattern('pay')));
  });

  it('sorts ids made later after earlier ones, compared byte by byte as SQLite does', () => {
    // Times that cross every character of the time part, including base64url's '-' and '_',
    // whose places in byte order differ from their places in base64url's own order.
    const times = [
      0,
      1,
      9,
      10,
      36,
      37,
      63,
      64,
      4095,
      4096,
      Date.UTC(2026, 0, 1),
      Date.now(),
      2 ** 48 - 1,
    ];
    const ids = times.map((time) => recordId('ord', time));
    const byBytes = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(byBytes).toEqual(ids);
  });

  it('keeps 14 random characters after the time: ids made in the same millisecond differ', () => {
    const now = Date.now();
    const ids = new Set(Array.from({ length: 1000 }, () => recordId('ord', now)));
    expect(ids.size).toBe(1000);
    const times = new Set([...ids].map((id) => id.slice('ord_'.length, 'ord_'.length + 8)));
    expect(times).toEqual(new Set([[...ids][0]!.slice(4, 12)]));
    const randomParts = new Set([...ids].map((id) => id.slice(12)));
    expect(randomParts.size).toBe(1000);
    expect([...randomParts][0]).toHaveLength(14);
  });
});
