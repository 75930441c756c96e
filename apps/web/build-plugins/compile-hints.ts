import type { Plugin } from 'vite';
import { groupOfFile, type BundleBudget } from '../scripts/first-visit-js.mjs';

/**
 * V8's explicit compile hint (Chrome 136 and later): a file that starts with this comment has
 * every function compiled eagerly, on a background thread while it streams in, instead of each
 * function lazily on the main thread the first time it is called.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

export interface HintedChunk {
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
}

/**
 * Whether a chunk's functions run while the page loads: the entries (the client entry and every
 * route module), the chunks they import statically (the shell, the catalog chunk, shared
 * modules), and the chunks loaded right after hydration (a deferred group of bundle-budget.json:
 * the monitoring SDK, the flag provider, the build watch). The other dynamic imports load on a
 * shopper's action (the header menu, the search suggestions…) and are left to lazy compilation.
 */
export function runsOnLoad(chunk: HintedChunk, budget: BundleBudget): boolean {
  return chunk.isEntry || !chunk.isDynamicEntry || groupOfFile(chunk.fileName, budget) !== 'page';
}

/**
 * Starts every client chunk that runs on load with the compile hint (docs/architecture.md
 * "Performance"). Added after minification, which would drop the comment; a source map, when
 * the build writes one, is moved down the one line.
 */
export function compileHints(budget: BundleBudget): Plugin {
  let ssr = false;
  return {
    name: 'showroom:compile-hints',
    apply: 'build',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle: {
      // After Vite's own rewrite, which puts the preload list of a chunk's dynamic imports at
      // its top.
      order: 'post',
      handler(_options, bundle) {
        if (ssr) return;
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk' || output.code.startsWith(COMPILE_HINT)) continue;
          if (!runsOnLoad(output, budget)) continue;
          output.code = COMPILE_HINT + output.code;
          if (output.map) output.map.mappings = `;${output.map.mappings}`;
        }
      },
    },
  };
}
