import { describe, expect, it } from 'vitest';
import { newIdempotencyKey } from './idempotency-key';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency keys', () => {
  it('are random UUIDs', () => {
    const first = newIdempotencyKey();
    expect(first).toMatch(UUID_V4);
    expect(newIdempotencyKey()).not.toBe(first);
  });

  it('are built from random bytes where randomUUID is missing (plain http)', () => {
    const key = newIdempotencyKey({
      getRandomValues: (array) => array.fill(0xff),
    });
    expect(key).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(key).toMatch(UUID_V4);
  });
});
