/**
 * Entry point of `npm run video -w tools/images` (`-- --force` regenerates,
 * `--out-dir <dir>` or VIDEO_OUT_DIR writes elsewhere).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_VIDEO_OUT_DIR, generateVideo } from './generate.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { force: { type: 'boolean', default: false }, 'out-dir': { type: 'string' } },
  strict: true,
});
const outDir = values['out-dir'] || process.env.VIDEO_OUT_DIR;

generateVideo({
  force: values.force,
  outDir: outDir ? resolve(process.env.INIT_CWD || process.cwd(), outDir) : DEFAULT_VIDEO_OUT_DIR,
}).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
