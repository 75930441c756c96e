import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { lowPriorityModulePreloads } from './module-preload-priority.server';

async function through(chunks: string[]): Promise<string> {
  return text(
    Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(lowPriorityModulePreloads()),
  );
}

const HEAD =
  '<head><title>Sofa – 3 seats</title><link rel="icon" href="/favicon.svg"/><link rel="modulepreload" href="/assets/a.js" nonce="n"/>' +
  '<link rel="modulepreload" href="/assets/b.js"/></head><body><p>Sofa – 3 seats</p>' +
  '<p>&lt;link rel="modulepreload"&gt; as text</p><link rel="modulepreload" href="/assets/c.js"/></body>';
const EXPECTED =
  '<head><title>Sofa – 3 seats</title><link rel="icon" href="/favicon.svg"/><link rel="modulepreload" fetchPriority="low" href="/assets/a.js" nonce="n"/>' +
  '<link rel="modulepreload" fetchPriority="low" href="/assets/b.js"/></head><body><p>Sofa – 3 seats</p>' +
  '<p>&lt;link rel="modulepreload"&gt; as text</p><link rel="modulepreload" href="/assets/c.js"/></body>';

describe('lowPriorityModulePreloads', () => {
  it('gives every module preload link of the head a low fetch priority and leaves the body alone', async () => {
    expect(await through([HEAD])).toBe(EXPECTED);
  });

  it('rewrites a link, the head end or a character split across chunks at any byte', async () => {
    const bytes = Buffer.from(HEAD);
    for (let cut = 1; cut < bytes.length; cut++) {
      const out = await text(
        Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]).pipe(
          lowPriorityModulePreloads(),
        ),
      );
      expect(out).toBe(EXPECTED);
    }
  });

  it('passes a document without module preloads through unchanged, ending included', async () => {
    const html = '<html><body><p>Chairs</p><link rel="module';
    expect(await through(['<html><body><p>Chairs</p>', '<link rel="module'])).toBe(html);
  });
});
