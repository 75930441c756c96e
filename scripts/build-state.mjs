// Whether built outputs are older than their sources: `npm start` (scripts/start.mjs) and the
// bench (bench/lib/api.mjs) decide the same way whether to build first.
import fs from 'node:fs';
import path from 'node:path';

/** Folders that are outputs or dependencies, never sources, wherever they are. */
const SKIPPED_NAMES = ['node_modules', 'build', 'dist', '.react-router'];
/**
 * Outputs the build writes among sources (the photos and the video, made by tools/images). The
 * video is made after the api is compiled: counted as a source, it made every first build stale.
 */
const SKIPPED_PATHS = ['apps/web/public/img', 'apps/web/public/video'];

/** Newest modification time under the given paths (files or folders), skipping outputs. */
function newestMtime(root, paths) {
  const skipped = new Set(SKIPPED_PATHS.map((p) => path.join(root, p)));
  let newest = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (SKIPPED_NAMES.includes(path.basename(p)) || skipped.has(p)) return;
      for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach((p) => visit(path.join(root, p)));
  return newest;
}

/** True when an output (path under root) is missing or older than any source (path under root). */
export function isStale(root, outputs, sources) {
  const files = outputs.map((file) => path.join(root, file));
  if (!files.every((file) => fs.existsSync(file))) return true;
  const built = Math.min(...files.map((file) => fs.statSync(file).mtimeMs));
  return newestMtime(root, sources) > built;
}

/** What `npm run build` makes for `npm start`, and the sources it is made from. */
const SHOP_OUTPUTS = [
  'apps/api/dist/server.js',
  'apps/web/build/server/index.js',
  'apps/web/build/server-main/main.js',
  'apps/web/build/build-meta.json',
];
const SHOP_SOURCES = [
  'apps/api/src',
  'apps/api/flags',
  'apps/web/app',
  'apps/web/server',
  'apps/web/public',
  'packages/contracts',
  'tools/images',
  'data/catalog.json',
  'package-lock.json',
];

/** True when `npm start` has to build first. */
export function shopBuildIsStale(root) {
  return isStale(root, SHOP_OUTPUTS, SHOP_SOURCES);
}
