import type { ManualChunkMeta } from 'rollup';
import type { Plugin } from 'vite';

/** The chunk every page loads: React, React Router and the shop's shell (`shell-*.js`). */
export const SHELL_CHUNK = 'shell';
/** The chunk of what the catalog's pages share with the product page (`catalog-*.js`). */
export const CATALOG_CHUNK = 'catalog';

/**
 * The modules whose static imports make up the shell: the client entry (React DOM, React
 * Router), the document (root.tsx), the start-up layout every page but /scenarios sits under
 * and the default frame (navbar, page, footer) most of them do (app/routes.ts).
 */
export const SHELL_ROOTS = [
  /\/entry\.client\.tsx$/,
  /\/app\/root\.tsx$/,
  /\/app\/layouts\/startup\.tsx$/,
  /\/app\/layouts\/default\.tsx$/,
];
/** The product page, and the other catalog pages whose shared code goes with it. */
export const CATALOG_PAGE = /\/app\/routes\/product\.tsx$/;
export const CATALOG_ROUTES = [/\/app\/routes\/(index|department|search|landing-table)\.tsx$/];

/** The shop's own sources: the web app and the contract package it bundles from source. */
const OWN_CODE = /\/(apps\/web\/app|packages\/contracts\/src)\//;

type Graph = Pick<ManualChunkMeta, 'getModuleIds' | 'getModuleInfo'>;

function idsMatching(graph: Graph, patterns: RegExp[]): string[] {
  return [...graph.getModuleIds()].filter((id) => patterns.some((pattern) => pattern.test(id)));
}

/**
 * Every module `roots` import statically, directly or through each other (with the roots).
 * Dynamic imports are not followed: what they load stays a chunk of its own, loaded later.
 * `walk` says through which modules to go on.
 */
export function staticImports(
  graph: Graph,
  roots: string[],
  walk: (id: string) => boolean = () => true,
): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (info && (roots.includes(id) || walk(id))) queue.push(...info.importedIds);
  }
  return seen;
}

/**
 * The shell: what the shell's roots import statically, packages included, except the roots and
 * other entries themselves (an entry keeps a file of its own, which the route manifest names).
 */
export function shellModules(graph: Graph): Set<string> {
  const shell = staticImports(graph, idsMatching(graph, SHELL_ROOTS));
  for (const id of shell) if (graph.getModuleInfo(id)?.isEntry) shell.delete(id);
  return shell;
}

/**
 * The catalog chunk: the shop's own modules the product page imports statically and another
 * catalog page imports too (the product card, image, add-to-cart button, the flag hooks),
 * outside the shell. Code only one page uses stays in that page's chunk, as Rollup puts it.
 */
export function catalogModules(graph: Graph, shell: Set<string>): Set<string> {
  const own = (id: string) => OWN_CODE.test(id);
  const product = staticImports(graph, idsMatching(graph, [CATALOG_PAGE]), own);
  const others = new Set(
    idsMatching(graph, CATALOG_ROUTES).flatMap((route) => [...staticImports(graph, [route], own)]),
  );
  const catalog = new Set<string>();
  for (const id of product) {
    if (!own(id) || shell.has(id) || !others.has(id)) continue;
    if (graph.getModuleInfo(id)?.isEntry) continue;
    catalog.add(id);
  }
  return catalog;
}

/**
 * The client build puts the shell in one chunk and the catalog's shared code in another
 * (docs/decisions/023-first-visit-chunks.md). Rollup would split them by which routes share
 * each module: about 25 files on a product page, most under 1 KB, which gzip compresses each
 * on its own; in two files the same code is about a third smaller.
 */
export function clientChunks(): Plugin {
  let ssr = false;
  return {
    name: 'showroom:client-chunks',
    apply: 'build',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    outputOptions(options) {
      if (ssr) return null;
      let chunks: { shell: Set<string>; catalog: Set<string> } | undefined;
      return {
        ...options,
        manualChunks(id, graph) {
          if (!chunks) {
            const shell = shellModules(graph);
            chunks = { shell, catalog: catalogModules(graph, shell) };
          }
          if (chunks.shell.has(id)) return SHELL_CHUNK;
          if (chunks.catalog.has(id)) return CATALOG_CHUNK;
          return undefined;
        },
      };
    },
  };
}

const DEVELOPMENT_BUILD = '/react-router/dist/development/';

/**
 * React Router's package exports name only its development build, in production too
 * (remix-run/react-router#14102); its production build beside it is the same code with the
 * development warnings switched off, which the minifier then drops. The client build resolves
 * every `react-router` import to it, so there is one copy; the server keeps the package's own.
 */
export function reactRouterProductionBuild(): Plugin {
  let ssr = false;
  return {
    name: 'showroom:react-router-production-build',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    async resolveId(source, importer, options) {
      if (ssr || !(source === 'react-router' || source.startsWith('react-router/'))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved?.id.includes(DEVELOPMENT_BUILD)) return resolved;
      return {
        ...resolved,
        id: resolved.id.replace(DEVELOPMENT_BUILD, '/react-router/dist/production/'),
      };
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const development = Object.keys(output.modules).find((id) =>
          id.includes(DEVELOPMENT_BUILD),
        );
        if (development) this.error(`${output.fileName} holds ${development}`);
      }
    },
  };
}
