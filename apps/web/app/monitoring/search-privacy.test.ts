import { describe, expect, it } from 'vitest';
import type { RumEvent } from '@datadog/browser-rum';
import { redactSearchEvent, redactSearchQuery } from './search-privacy';

describe('search text in monitoring URLs', () => {
  it.each([
    [
      'http://shop.test/search?q=jane%40example.com&colour=red',
      'http://shop.test/search?q=redacted&colour=red',
    ],
    [
      'http://shop.test/api/search/suggestions?q=my+address',
      'http://shop.test/api/search/suggestions?q=redacted',
    ],
    ['http://shop.test/search', 'http://shop.test/search'],
    ['http://shop.test/department/sofas?q=kept', 'http://shop.test/department/sofas?q=kept'],
    ['http://shop.test/searches?q=kept', 'http://shop.test/searches?q=kept'],
    ['not a url q=1', 'not a url q=1'],
  ])('%s → %s', (url, expected) => {
    expect(redactSearchQuery(url)).toBe(expected);
  });

  it('redacts the view, its referrer, resources and failed requests of an event', () => {
    const resource = {
      type: 'resource',
      view: { url: 'http://s/search?q=secret', referrer: 'http://s/search?q=older' },
      resource: { url: 'http://s/api/search/suggestions?q=sec' },
    } as unknown as RumEvent;
    redactSearchEvent(resource);
    expect(JSON.stringify(resource)).not.toMatch(/secret|older|sec\b/);

    const error = {
      type: 'error',
      view: { url: 'http://s/', referrer: '' },
      error: { resource: { url: 'http://s/api/search/suggestions?q=private' } },
    } as unknown as RumEvent;
    redactSearchEvent(error);
    expect(JSON.stringify(error)).not.toContain('private');
  });
});
