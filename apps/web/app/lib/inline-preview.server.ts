import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TakeInlinePreview } from '../components/inline-preview';

/** Larger renditions are not inlined: they would slow the document more than they save. */
const MAX_INLINE_BYTES = 12 * 1024;
const MIME_BY_EXTENSION: Record<string, string> = {
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
};

/** The built client folder: this module is bundled into build/server/index.js. */
const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client');
const cache = new Map<string, string | null>();

function dataUri(url: string): string | null {
  let uri = cache.get(url);
  if (uri !== undefined) return uri;
  uri = null;
  const mime = MIME_BY_EXTENSION[path.extname(url)];
  const file = path.join(CLIENT_DIR, path.normalize(url));
  if (mime && url.startsWith('/img/') && file.startsWith(CLIENT_DIR)) {
    try {
      const bytes = fs.readFileSync(file);
      if (bytes.length <= MAX_INLINE_BYTES) uri = `data:${mime};base64,${bytes.toString('base64')}`;
    } catch {
      // Not built (dev server) or missing: the image simply loads the usual way.
    }
  }
  cache.set(url, uri);
  return uri;
}

/** A new taker per document: the first image that asks gets its preview, later ones none. */
export function createInlinePreviewTaker(): TakeInlinePreview {
  let taken = false;
  return (url) => {
    if (taken) return null;
    taken = true;
    return dataUri(url);
  };
}
