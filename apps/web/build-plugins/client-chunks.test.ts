import { describe, expect, it } from 'vitest';
import {
  CATALOG_CHUNK,
  catalogModules,
  clientChunks,
  reactRouterProductionBuild,
  SHELL_CHUNK,
  shellModules,
} from './client-chunks';

const APP = '/repo/apps/web/app';
const NM = '/repo/node_modules';

/** A module graph as Rollup describes it to `manualChunks`: static and dynamic imports. */
const modules: Record<string, { entry?: boolean; imports?: string[]; dynamic?: string[] }> = {
  [`${NM}/@react-router/dev/dist/config/defaults/entry.client.tsx`]: {
    entry: true,
    imports: [`${NM}/react-dom/client.js`, `${NM}/react-router/dist/production/dom-export.mjs`],
  },
  [`${NM}/react-dom/client.js`]: { imports: [`${NM}/react/index.js`] },
  [`${NM}/react-router/dist/production/dom-export.mjs`]: { imports: [`${NM}/react/index.js`] },
  [`${NM}/react/index.js`]: {},
  [`${APP}/root.tsx`]: {
    entry: true,
    imports: [`${APP}/components/navbar.tsx`],
    dynamic: [`${APP}/builds/build-watch.ts`],
  },
  [`${APP}/components/navbar.tsx`]: { imports: [`${APP}/lib/api-client.ts`] },
  [`${APP}/lib/api-client.ts`]: { imports: ['/repo/packages/contracts/src/error-codes.ts'] },
  ['/repo/packages/contracts/src/error-codes.ts']: {},
  [`${APP}/builds/build-watch.ts`]: {},
  [`${APP}/layouts/startup.tsx`]: {
    entry: true,
    imports: [`${APP}/startup/orchestrator.ts`],
    dynamic: [`${NM}/@datadog/browser-rum/esm/entries/main.js`],
  },
  [`${APP}/startup/orchestrator.ts`]: {},
  [`${NM}/@datadog/browser-rum/esm/entries/main.js`]: {},
  [`${APP}/routes/product.tsx`]: {
    entry: true,
    imports: [
      `${APP}/components/product-detail.tsx`,
      `${APP}/components/product-card.tsx`,
      `${APP}/lib/api-client.ts`,
      `${APP}/root.tsx`,
    ],
  },
  [`${APP}/components/product-detail.tsx`]: { imports: [`${APP}/components/add-to-cart.tsx`] },
  [`${APP}/components/add-to-cart.tsx`]: { imports: [`${NM}/some-package/index.js`] },
  [`${NM}/some-package/index.js`]: {},
  [`${APP}/components/product-card.tsx`]: {},
  [`${APP}/routes/department.tsx`]: {
    entry: true,
    imports: [`${APP}/components/product-card.tsx`, `${APP}/components/listing-filters.tsx`],
  },
  [`${APP}/routes/search.tsx`]: { entry: true, imports: [`${APP}/components/listing-filters.tsx`] },
  [`${APP}/components/listing-filters.tsx`]: {},
  [`${APP}/routes/landing-table.tsx`]: {
    entry: true,
    imports: [`${APP}/components/add-to-cart.tsx`],
  },
  [`${APP}/routes/checkout.tsx`]: { entry: true, imports: [`${APP}/components/product-card.tsx`] },
};

const graph = {
  getModuleIds: () => Object.keys(modules)[Symbol.iterator](),
  getModuleInfo: (id: string) => {
    const module = modules[id];
    if (!module) return null;
    return {
      id,
      isEntry: module.entry ?? false,
      importedIds: module.imports ?? [],
      dynamicallyImportedIds: module.dynamic ?? [],
    };
  },
} as unknown as Parameters<typeof shellModules>[0];

describe('client chunks (build plugin)', () => {
  const shell = shellModules(graph);

  it('puts what the entry, the document and the start-up layout import statically in the shell', () => {
    expect([...shell].sort()).toEqual(
      [
        `${NM}/react-dom/client.js`,
        `${NM}/react-router/dist/production/dom-export.mjs`,
        `${NM}/react/index.js`,
        `${APP}/components/navbar.tsx`,
        `${APP}/lib/api-client.ts`,
        '/repo/packages/contracts/src/error-codes.ts',
        `${APP}/startup/orchestrator.ts`,
      ].sort(),
    );
  });

  it('leaves out the entries themselves and what is only imported dynamically', () => {
    for (const id of [
      `${APP}/root.tsx`,
      `${APP}/layouts/startup.tsx`,
      `${APP}/builds/build-watch.ts`,
      `${NM}/@datadog/browser-rum/esm/entries/main.js`,
    ]) {
      expect(shell.has(id), id).toBe(false);
    }
  });

  it('puts the product page’s own modules that another catalog page shares in the catalog chunk', () => {
    // product-card: the product page and the department page; add-to-cart: through the
    // product detail, and the landing table. product-detail is the product page's alone,
    // listing-filters is not on the product page, api-client is in the shell, and a
    // package's module stays where Rollup puts it.
    expect([...catalogModules(graph, shell)].sort()).toEqual(
      [`${APP}/components/add-to-cart.tsx`, `${APP}/components/product-card.tsx`].sort(),
    );
  });

  it('names the chunks in the client build only', () => {
    const plugin = clientChunks() as unknown as {
      configResolved(config: { build: { ssr: boolean | string } }): void;
      outputOptions(options: object): {
        manualChunks(id: string, meta: typeof graph): string | undefined;
      } | null;
    };
    plugin.configResolved({ build: { ssr: false } });
    const { manualChunks } = plugin.outputOptions({})!;
    expect(manualChunks(`${APP}/lib/api-client.ts`, graph)).toBe(SHELL_CHUNK);
    expect(manualChunks(`${APP}/components/product-card.tsx`, graph)).toBe(CATALOG_CHUNK);
    expect(manualChunks(`${APP}/components/product-detail.tsx`, graph)).toBeUndefined();
    expect(manualChunks(`${APP}/routes/product.tsx`, graph)).toBeUndefined();

    const server = clientChunks() as unknown as typeof plugin;
    server.configResolved({ build: { ssr: 'virtual:react-router/server-build' } });
    expect(server.outputOptions({})).toBeNull();
  });
});

describe('React Router’s production build (build plugin)', () => {
  type Resolve = (
    source: string,
    importer: string | undefined,
    options: object,
  ) => Promise<{ id: string } | null>;
  function plugin(ssr: boolean) {
    const hooks = reactRouterProductionBuild() as unknown as {
      configResolved(config: { build: { ssr: boolean } }): void;
      resolveId(
        this: { resolve: Resolve },
        source: string,
        importer: string,
        options: object,
      ): Promise<{ id: string } | null>;
    };
    hooks.configResolved({ build: { ssr } });
    const resolve: Resolve = async (source) =>
      source.startsWith('react-router')
        ? {
            id: `${NM}/react-router/dist/development/${source === 'react-router' ? 'index' : 'dom-export'}.mjs`,
          }
        : { id: `${NM}/${source}/index.js` };
    return (source: string) => hooks.resolveId.call({ resolve }, source, `${APP}/root.tsx`, {});
  }

  it('resolves react-router and its subpaths to the production files in the client build', async () => {
    const resolve = plugin(false);
    expect(await resolve('react-router')).toEqual({
      id: `${NM}/react-router/dist/production/index.mjs`,
    });
    expect(await resolve('react-router/dom')).toEqual({
      id: `${NM}/react-router/dist/production/dom-export.mjs`,
    });
    expect(await resolve('react-router-extra')).toBeNull();
    expect(await resolve('react')).toBeNull();
  });

  it('leaves the server build to the package', async () => {
    expect(await plugin(true)('react-router')).toBeNull();
  });
});
