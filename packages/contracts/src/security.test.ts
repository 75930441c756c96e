import { describe, expect, it } from 'vitest';
import { crossSiteReason, writeRequestOf } from './security.js';

describe('writeRequestOf', () => {
  it('reads the first value of each header, X-Forwarded-Host before Host', () => {
    expect(
      writeRequestOf('POST', {
        origin: ['https://shop.test', 'https://evil.example'],
        'sec-fetch-site': 'same-site',
        'x-forwarded-host': ['shop.test', 'proxy.internal'],
        host: 'api.internal:3001',
      }),
    ).toEqual({
      method: 'POST',
      origin: 'https://shop.test',
      secFetchSite: 'same-site',
      host: 'shop.test',
    });
    expect(writeRequestOf('GET', { host: 'shop.test' })).toEqual({
      method: 'GET',
      origin: undefined,
      secFetchSite: undefined,
      host: 'shop.test',
    });
  });

  it('lets a write from the proxied host through and refuses another origin', () => {
    const through = { 'x-forwarded-host': 'shop.test', host: 'api.internal:3001' };
    expect(
      crossSiteReason(writeRequestOf('POST', { ...through, origin: 'https://shop.test' }), []),
    ).toBeNull();
    expect(
      crossSiteReason(writeRequestOf('POST', { ...through, origin: 'https://evil.example' }), []),
    ).toContain('https://evil.example');
  });
});
