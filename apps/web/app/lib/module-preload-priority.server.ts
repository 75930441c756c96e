import { Transform, type TransformCallback } from 'node:stream';

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW_PRIORITY = Buffer.from('<link rel="modulepreload" fetchPriority="low"');
const HEAD_END = Buffer.from('</head>');

/**
 * The document's module preloads at low fetch priority (docs/architecture.md "Performance").
 * Every page paints from its document alone (inline stylesheet, inline first image), so the
 * scripts only hydrate it: at high priority they compete with the page's largest image and,
 * loaded before the first paint, count as render-blocking in Lighthouse's simulation. React
 * Router writes the links itself without a priority option, and React hoists them into the
 * head, so the head is rewritten on its way out and the body passes through untouched. Works on
 * bytes (the ASCII markers cannot occur inside a multi-byte character); a marker split across
 * two chunks is carried over to the next one.
 */
export function lowPriorityModulePreloads(): Transform {
  let carry = Buffer.alloc(0);
  let inHead = true;
  return new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (!inHead) return done(null, bytes);
      const text = carry.length > 0 ? Buffer.concat([carry, bytes]) : bytes;
      const headEnd = text.indexOf(HEAD_END);
      if (headEnd >= 0) {
        inHead = false;
        carry = Buffer.alloc(0);
        return done(
          null,
          Buffer.concat([rewrite(text.subarray(0, headEnd)), text.subarray(headEnd)]),
        );
      }
      // Keep back a tail that could be the start of a marker the next chunk completes.
      const keep = Math.max(
        partialPrefixLength(text, MODULE_PRELOAD),
        partialPrefixLength(text, HEAD_END),
      );
      carry = Buffer.from(text.subarray(text.length - keep));
      done(null, rewrite(text.subarray(0, text.length - keep)));
    },
    flush(done: TransformCallback) {
      done(null, rewrite(carry));
    },
  });
}

function rewrite(html: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = html.indexOf(MODULE_PRELOAD); at >= 0; at = html.indexOf(MODULE_PRELOAD, from)) {
    parts.push(html.subarray(from, at), LOW_PRIORITY);
    from = at + MODULE_PRELOAD.length;
  }
  if (from === 0) return html;
  parts.push(html.subarray(from));
  return Buffer.concat(parts);
}

/** The length of the longest end of `bytes` that is a proper start of `marker`. */
function partialPrefixLength(bytes: Buffer, marker: Buffer): number {
  for (let length = Math.min(marker.length - 1, bytes.length); length > 0; length--) {
    if (bytes.subarray(bytes.length - length).equals(marker.subarray(0, length))) return length;
  }
  return 0;
}
