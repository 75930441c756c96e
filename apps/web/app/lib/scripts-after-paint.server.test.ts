import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import {
  START_SCRIPTS_AFTER_PAINT,
  WAITING_MODULE_TYPE,
  WAITING_PRELOAD_REL,
  scriptsAfterFirstPaint,
} from './scripts-after-paint.server';
import { PRIORITY_IMAGE_TIMING } from './priority-image';

async function through(chunks: (string | Buffer)[]): Promise<string> {
  return text(
    Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(scriptsAfterFirstPaint()),
  );
}

// React Router's pieces as React writes them, with a page around them.
const DOCUMENT =
  '<head><title>Sofa – 3 seats</title><link rel="icon" href="/favicon.png"/>' +
  '<link rel="modulepreload" href="/assets/a.js" nonce="n"/><link rel="modulepreload" href="/assets/b.js"/></head>' +
  '<body><p>Sofa – 3 seats</p><p>&lt;link rel=&quot;modulepreload&quot;&gt; as text</p>' +
  '<script nonce="n">window.__reactRouterContext = {"state":"type=\\"module\\" async=\\"\\">"};</script>' +
  '<script nonce="n" type="module" async="">import "/assets/a.js";</script>' +
  '<div hidden id="S:0"><link rel="modulepreload" href="/assets/c.js"/><script type="module" async="">x</script></div></body>';
const EXPECTED =
  '<head><title>Sofa – 3 seats</title><link rel="icon" href="/favicon.png"/>' +
  `<link rel="${WAITING_PRELOAD_REL}" href="/assets/a.js" nonce="n"/><link rel="${WAITING_PRELOAD_REL}" href="/assets/b.js"/></head>` +
  '<body><p>Sofa – 3 seats</p><p>&lt;link rel=&quot;modulepreload&quot;&gt; as text</p>' +
  `<script nonce="n">${START_SCRIPTS_AFTER_PAINT}window.__reactRouterContext = {"state":"type=\\"module\\" async=\\"\\">"};</script>` +
  `<script nonce="n" type="${WAITING_MODULE_TYPE}" async="">import "/assets/a.js";</script>` +
  '<div hidden id="S:0"><link rel="modulepreload" href="/assets/c.js"/><script type="module" async="">x</script></div></body>';

describe('scriptsAfterFirstPaint', () => {
  it('writes the preloads and the module script inert and starts the context script with what restores them', async () => {
    expect(await through([DOCUMENT])).toBe(EXPECTED);
  });

  it('rewrites a marker or a character split across chunks at any byte', async () => {
    const bytes = Buffer.from(DOCUMENT);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(EXPECTED);
    }
  });

  it('rewrites a document sent a byte at a time', async () => {
    const bytes = Buffer.from(DOCUMENT);
    const single = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(await through(single)).toBe(EXPECTED);
  });

  it('passes a document without React Router scripts through unchanged, ending included', async () => {
    const html = '<html><body><p>Chairs</p><link rel="module';
    expect(await through(['<html><body><p>Chairs</p>', '<link rel="module'])).toBe(html);
  });

  it('leaves the module script as written when no context script of React Router comes before it', async () => {
    const html =
      '<head><link rel="modulepreload" href="/assets/a.js"/></head><body>' +
      '<script type="module" async="">import "/assets/a.js";</script>' +
      '<script>window.__reactRouterContext = {};</script></body>';
    expect(await through([html])).toBe(
      `<head><link rel="${WAITING_PRELOAD_REL}" href="/assets/a.js"/></head><body>` +
        '<script type="module" async="">import "/assets/a.js";</script>' +
        `<script>${START_SCRIPTS_AFTER_PAINT}window.__reactRouterContext = {};</script></body>`,
    );
  });

  it('restores what it made inert: the browser code names the same rel and type', () => {
    expect(START_SCRIPTS_AFTER_PAINT).toContain(`link[rel="${WAITING_PRELOAD_REL}"]`);
    expect(START_SCRIPTS_AFTER_PAINT).toContain(`script[type="${WAITING_MODULE_TYPE}"]`);
    // It waits for the images product-image.tsx names for Element Timing.
    expect(START_SCRIPTS_AFTER_PAINT).toContain(`img[elementtiming="${PRIORITY_IMAGE_TIMING}"]`);
    // It is one statement that parses as a script.
    expect(() => new Function(START_SCRIPTS_AFTER_PAINT)).not.toThrow();
  });
});
