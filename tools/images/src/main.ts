/** Entry point of `npm run generate -w tools/images` (see cli.ts for the options). */
import { USAGE, parseOptions } from './cli.js';
import { CatalogError } from './catalog.js';
import { generateImages, type GenerateOptions } from './generate.js';

function options(): GenerateOptions {
  try {
    return parseOptions(process.argv.slice(2), process.env, process.cwd());
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}

generateImages(options()).catch((error: unknown) => {
  // A bad catalog is the user's to fix: its message names the file and the path, no stack needed.
  console.error(error instanceof CatalogError ? error.message : error);
  process.exitCode = 1;
});
