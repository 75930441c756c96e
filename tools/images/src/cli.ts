/**
 * Command line of the image tool:
 *
 *   npm run generate -w tools/images                      # skips when up to date
 *   npm run generate -w tools/images -- --force           # always regenerate
 *   npm run generate -w tools/images -- --out-dir <dir>   # or IMAGES_OUT_DIR=<dir>
 *
 * The output folder is the one served at `/img` (default: the web's public/img). A relative
 * folder is taken from where npm was run (INIT_CWD), not from this workspace.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_OUT_DIR, type GenerateOptions } from './generate.js';

export const USAGE = 'usage: generate [--force] [--out-dir <dir>]  (env: IMAGES_OUT_DIR)';

export function parseOptions(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): GenerateOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      force: { type: 'boolean', default: false },
      'out-dir': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const outDir = values['out-dir'] || env.IMAGES_OUT_DIR;
  return {
    force: values.force,
    outDir: outDir ? resolve(env.INIT_CWD || cwd, outDir) : DEFAULT_OUT_DIR,
  };
}
