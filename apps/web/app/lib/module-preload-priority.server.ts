import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const MODULE_PRELOAD = '<link rel="modulepreload"';
const LOW_PRIORITY = '<link rel="modulepreload" fetchPriority="low"';

/**
 * The document's module preloads at low fetch priority (docs/architecture.md "Performance").
 * Every page paints from its document alone (inline stylesheet, inline first image), so the
 * scripts only hydrate it: at high priority they compete with the page's largest image and,
 * loaded before the first paint, count as render-blocking in Lighthouse's simulation. React
 * Router writes the links itself without a priority option, so the rendered HTML is rewritten
 * on its way out; a link split across two chunks is carried over to the next one.
 */
export function lowPriorityModulePreloads(): Transform {
  let carry = '';
  // A chunk may also end inside a multi-byte character: the decoder keeps its first bytes back.
  const decoder = new StringDecoder('utf8');
  return new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
      // Keep back a tail that could be the start of a link the next chunk completes.
      const keep = partialPrefixLength(text);
      carry = text.slice(text.length - keep);
      done(null, rewrite(text.slice(0, text.length - keep)));
    },
    flush(done: TransformCallback) {
      done(null, rewrite(carry + decoder.end()));
    },
  });
}

function rewrite(html: string): string {
  return html.includes(MODULE_PRELOAD) ? html.replaceAll(MODULE_PRELOAD, LOW_PRIORITY) : html;
}

/** The length of the longest end of `text` that is a proper start of the link's opening. */
function partialPrefixLength(text: string): number {
  const longest = Math.min(MODULE_PRELOAD.length - 1, text.length);
  for (let length = longest; length > 0; length--) {
    if (MODULE_PRELOAD.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
