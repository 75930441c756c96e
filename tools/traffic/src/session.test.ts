import { describe, expect, it } from 'vitest';
import { StatePool } from './session.js';

describe('the returning visitors’ states', () => {
  it('keep identity and sign-in but not the monitoring session, and stay bounded', () => {
    const pool = new StatePool(2);
    const cookie = {
      domain: 'shop',
      path: '/',
      expires: -1,
      httpOnly: false,
      secure: false,
      sameSite: 'Lax' as const,
    };
    pool.add(
      {
        cookies: [
          { ...cookie, name: '_dd_s', value: 'id=1' },
          { ...cookie, name: '_dd_s_v2', value: 'id=1' },
          { ...cookie, name: 'sid', value: 'abc' },
        ],
        origins: [
          {
            origin: 'http://shop',
            localStorage: [
              { name: '_dd_s', value: 'id=1' },
              { name: 'shopper_persona', value: '{}' },
            ],
          },
        ],
      },
      false,
    );
    const state = pool.pick(0.5)!;
    expect(state.cookies.map((entry) => entry.name)).toEqual(['sid']);
    expect(state.origins[0]!.localStorage.map((entry) => entry.name)).toEqual(['shopper_persona']);
    pool.add({ cookies: [], origins: [] }, false);
    pool.add({ cookies: [], origins: [] }, true);
    expect(pool.size).toBe(2);
    expect(new StatePool().pick(0.3)).toBeUndefined();
  });
});
