import { reactRouter } from '@react-router/dev/vite';
import { defaultClientConditions, defaultServerConditions, defineConfig, type Plugin } from 'vite';
import { clientChunks, reactRouterProductionBuild } from './build-plugins/client-chunks';
import { compileHints } from './build-plugins/compile-hints';
import { shopperLists } from './build-plugins/shopper-lists';
import { groupOfFile, readBundleBudget } from './scripts/first-visit-js.mjs';

/** bundle-budget.json: which chunks load after hydration, by group. */
const BUDGET = readBundleBudget();
if (!BUDGET.deferred.flags)
  throw new Error('bundle-budget.json: the deferred groups name no flags');

const OPENFEATURE_CODE = /node_modules\/(@openfeature\/|@datadog\/openfeature-browser\/)/;

/**
 * The OpenFeature SDK and the Datadog provider load after hydration (docs/architecture.md
 * "Start-up in the browser", step 6): their chunk is the dynamic import of
 * app/flags/flag-provider-runtime.ts, named by that file `flag-provider-runtime-*.js`. The client
 * build fails when their code lands in a chunk outside the flag prefixes of bundle-budget.json,
 * or when another chunk imports a flag chunk statically (it would be preloaded on every page).
 */
function flagChunksStayDeferred(): Plugin {
  let ssr = false;
  const isFlagChunk = (fileName: string) => groupOfFile(fileName, BUDGET) === 'flags';
  return {
    name: 'showroom:flag-chunks-stay-deferred',
    apply: 'build',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const hasOpenFeature = Object.keys(output.modules).some((id) => OPENFEATURE_CODE.test(id));
        if (hasOpenFeature && !isFlagChunk(output.fileName)) {
          this.error(`${output.fileName} holds OpenFeature code but is not a flag-provider chunk`);
        }
        const staticFlagImport = output.imports.find(isFlagChunk);
        if (staticFlagImport && !isFlagChunk(output.fileName)) {
          this.error(`${output.fileName} imports ${staticFlagImport} statically`);
        }
      }
    },
  };
}

export default defineConfig({
  plugins: [
    reactRouter(),
    flagChunksStayDeferred(),
    clientChunks(),
    reactRouterProductionBuild(),
    compileHints(BUDGET),
    shopperLists(new URL('../../data/shoppers/', import.meta.url)),
  ],
  // Workspace packages (@showroom/contracts) are bundled from their TypeScript sources.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  build: {
    // The monitoring SDK is a lazily loaded chunk; keep the initial bundle lean.
    chunkSizeWarningLimit: 600,
    // Terser with two compress passes writes scripts about 5 % smaller (gzip) than esbuild's
    // minifier: the monitoring SDK and flag provider chunks 4–8 % (bundle-budget.json). Safe
    // transforms only, license comments kept; the server build is not minified.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 } },
    modulePreload: {
      // The header search's suggestions (components/search-suggest.tsx) load on the box's first
      // focus and import only modules the page has loaded already (React, the router, the shop
      // session, the catalog helpers): listing them for preloading would only add their file
      // names to every page's first-visit JavaScript (bundle-budget.json).
      resolveDependencies: (file, deps) =>
        /(^|\/)search-suggest-[^/]*\.js$/.test(file) ? [] : deps,
    },
  },
});
