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
  '<head><link rel="icon" href="/favicon.svg"/><link rel="modulepreload" href="/assets/a.js" nonce="n"/>' +
  '<link rel="modulepreload" href="/assets/b.js"/></head><body><p>rel="modulepreload" as text</p></body>';
const EXPECTED =
  '<head><link rel="icon" href="/favicon.svg"/><link rel="modulepreload" fetchPriority="low" href="/assets/a.js" nonce="n"/>' +
  '<link rel="modulepreload" fetchPriority="low" href="/assets/b.js"/></head><body><p>rel="modulepreload" as text</p></body>';

describe('lowPriorityModulePreloads', () => {
  it('gives every module preload link a low fetch priority and leaves the rest alone', async () => {
    expect(await through([HEAD])).toBe(EXPECTED);
  });

  it('rewrites a link split across chunks at any point', async () => {
    for (let cut = 1; cut < HEAD.length; cut++) {
      expect(await through([HEAD.slice(0, cut), HEAD.slice(cut)])).toBe(EXPECTED);
    }
  });

  it('keeps a character whose bytes two chunks share', async () => {
    const bytes = Buffer.from('<p>Sofa – 3 seats</p><link rel="modulepreload" href="/x.js"/>');
    const cut = bytes.indexOf(Buffer.from('–')) + 1;
    const out = await text(
      Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]).pipe(
        lowPriorityModulePreloads(),
      ),
    );
    expect(out).toBe(
      '<p>Sofa – 3 seats</p><link rel="modulepreload" fetchPriority="low" href="/x.js"/>',
    );
  });

  it('passes a document without module preloads through unchanged, ending included', async () => {
    const html = '<html><body><p>Chairs</p><link rel="module';
    expect(await through(['<html><body><p>Chairs</p>', '<link rel="module'])).toBe(html);
  });
});
