// Whether built outputs are older than their sources: `npm start` (scripts/start.mjs) and the
// bench (bench/lib/api.mjs) decide the same way whether to build first.
import fs from 'node:fs';
import path from 'node:path';

/** Folders that are outputs or dependencies, never sources. */
const SKIPPED = ['node_modules', 'build', 'dist', '.react-router', 'img'];

/** Newest modification time under the given paths (files or folders), skipping outputs. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (SKIPPED.includes(path.basename(p))) return;
      for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

/** True when an output (path under root) is missing or older than any source (path under root). */
export function isStale(root, outputs, sources) {
  const files = outputs.map((file) => path.join(root, file));
  if (!files.every((file) => fs.existsSync(file))) return true;
  const built = Math.min(...files.map((file) => fs.statSync(file).mtimeMs));
  return newestMtime(sources.map((p) => path.join(root, p))) > built;
}
