import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TakeInlinePreview } from '../components/inline-preview';

/** Larger renditions are not inlined: they would slow the document more than they save. */
const MAX_INLINE_BYTES = 20 * 1024;
const MIME_BY_EXTENSION: Record<string, string> = {
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
};

/**
 * The built client folder, beside the server build this module is bundled into
 * (build/server/…); none under the dev server, which then inlines nothing.
 */
const CLIENT_DIR = findClientDir(path.dirname(fileURLToPath(import.meta.url)));

function findClientDir(start: string): string | null {
  for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) === 'build' && fs.existsSync(path.join(dir, 'client'))) {
      return path.join(dir, 'client');
    }
  }
  return null;
}
const cache = new Map<string, string | null>();

function dataUri(url: string): string | null {
  let uri = cache.get(url);
  if (uri !== undefined) return uri;
  uri = null;
  const mime = MIME_BY_EXTENSION[path.extname(url)];
  const file = CLIENT_DIR && path.join(CLIENT_DIR, path.normalize(url));
  if (CLIENT_DIR && file && mime && url.startsWith('/img/') && file.startsWith(CLIENT_DIR)) {
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
