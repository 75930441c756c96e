import { randomIdPattern } from '@showroom/contracts/random-id';
import { describe, expect, it } from 'vitest';
import { randomId } from './random-id.js';

describe('randomId', () => {
  it("makes ids the contract's pattern accepts, and the pattern refuses other prefixes", () => {
    const id = randomId('ord');
    expect(id).toMatch(new RegExp(randomIdPattern('ord')));
    expect(id).not.toMatch(new RegExp(randomIdPattern('pm')));
    expect(randomId('ord')).not.toBe(id);
  });
});
