import { describe, expect, it } from 'vitest';
import { AFTER_SIGN_IN, safeNextPath, signInPath } from './next-path';

describe('safeNextPath', () => {
  it('keeps a path of this site with its query and hash', () => {
    expect(safeNextPath('/checkout')).toBe('/checkout');
    expect(safeNextPath('/profile-edit?tab=address#email')).toBe('/profile-edit?tab=address#email');
    expect(safeNextPath('/department/chairs/product/13')).toBe('/department/chairs/product/13');
  });

  it('goes to the profile for anything that could leave the site', () => {
    for (const next of [
      null,
      undefined,
      '',
      'checkout',
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      '/\tevil',
      '/%0a',
      'javascript:alert(1)',
    ]) {
      const safe = safeNextPath(next);
      expect(safe === AFTER_SIGN_IN || safe.startsWith('/'), String(next)).toBe(true);
      expect(safe, String(next)).not.toContain('evil.example');
    }
    expect(safeNextPath('//evil.example/path')).toBe(AFTER_SIGN_IN);
    expect(safeNextPath('/\\evil.example')).toBe(AFTER_SIGN_IN);
    expect(safeNextPath('javascript:alert(1)')).toBe(AFTER_SIGN_IN);
  });

  it('does not come back to the sign-in pages themselves', () => {
    expect(safeNextPath('/signin?next=/cart')).toBe(AFTER_SIGN_IN);
    expect(safeNextPath('/signup')).toBe(AFTER_SIGN_IN);
    expect(safeNextPath('/signin', '/cart')).toBe('/cart');
  });

  it('builds sign-in links that come back', () => {
    expect(signInPath('/checkout')).toBe('/signin?next=%2Fcheckout');
    expect(signInPath('//evil.example')).toBe('/signin');
    expect(signInPath()).toBe('/signin');
  });
});
