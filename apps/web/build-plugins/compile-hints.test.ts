import type { OutputBundle, OutputChunk } from 'rollup';
import { describe, expect, it } from 'vitest';
import type { BundleBudget } from '../scripts/first-visit-js.mjs';
import { COMPILE_HINT, compileHints, runsOnLoad } from './compile-hints';

const BUDGET: BundleBudget = {
  page: '/',
  budget: { page: 1, deferred: 1 },
  ceiling: { page: 1, deferred: 1 },
  deferred: { monitoring: ['datadog-rum-'], flags: ['flag-provider-'], builds: ['build-watch-'] },
};

function chunk(fileName: string, kind: 'entry' | 'dynamic' | 'static'): OutputChunk {
  return {
    type: 'chunk',
    fileName,
    isEntry: kind === 'entry',
    isDynamicEntry: kind === 'dynamic',
    code: 'import{a as b}from"./shell-1.js";export const x=1;',
    map: null,
  } as unknown as OutputChunk;
}

/** Runs the plugin's generateBundle over `chunks` as the client (or server) build would. */
function generate(chunks: OutputChunk[], ssr = false): Record<string, OutputChunk> {
  const plugin = compileHints(BUDGET);
  const bundle = Object.fromEntries(chunks.map((c) => [c.fileName, c])) as OutputBundle;
  (plugin.configResolved as (config: unknown) => void)({ build: { ssr } });
  const hook = plugin.generateBundle as {
    order: string;
    handler: (options: unknown, bundle: OutputBundle) => void;
  };
  expect(hook.order).toBe('post');
  hook.handler({}, bundle);
  return bundle as Record<string, OutputChunk>;
}

describe('runsOnLoad', () => {
  it('takes the entries (the client entry and the route modules)', () => {
    expect(runsOnLoad(chunk('assets/product-1.js', 'entry'), BUDGET)).toBe(true);
  });

  it('takes the chunks entries import statically (the shell, shared modules)', () => {
    expect(runsOnLoad(chunk('assets/shell-1.js', 'static'), BUDGET)).toBe(true);
  });

  it('takes the dynamic imports made right after hydration', () => {
    expect(runsOnLoad(chunk('assets/datadog-rum-1.js', 'dynamic'), BUDGET)).toBe(true);
    expect(runsOnLoad(chunk('assets/flag-provider-runtime-1.js', 'dynamic'), BUDGET)).toBe(true);
  });

  it("leaves the dynamic imports made on a shopper's action", () => {
    expect(runsOnLoad(chunk('assets/navbar-menu-1.js', 'dynamic'), BUDGET)).toBe(false);
    expect(runsOnLoad(chunk('assets/search-suggest-1.js', 'dynamic'), BUDGET)).toBe(false);
  });
});

describe('compileHints', () => {
  it('starts each chunk that runs on load with the hint, once, and no other chunk', () => {
    const bundle = generate([
      chunk('assets/shell-1.js', 'static'),
      chunk('assets/datadog-rum-1.js', 'dynamic'),
      chunk('assets/navbar-menu-1.js', 'dynamic'),
    ]);
    expect(bundle['assets/shell-1.js']!.code).toBe(`${COMPILE_HINT}${chunk('x', 'static').code}`);
    expect(bundle['assets/datadog-rum-1.js']!.code.startsWith(COMPILE_HINT)).toBe(true);
    expect(bundle['assets/navbar-menu-1.js']!.code.includes('allFunctionsCalledOnLoad')).toBe(
      false,
    );

    const again = generate([bundle['assets/shell-1.js']!]);
    expect(again['assets/shell-1.js']!.code.split(COMPILE_HINT)).toHaveLength(2);
  });

  it('is the first line even above the preload list Vite writes at the top of a chunk', () => {
    const withPreloads = chunk('assets/datadog-rum-1.js', 'dynamic');
    withPreloads.code = `const __vite__mapDeps=(i)=>i;\n${withPreloads.code}`;
    const bundle = generate([withPreloads]);
    expect(bundle['assets/datadog-rum-1.js']!.code.indexOf(COMPILE_HINT)).toBe(0);
  });

  it('moves a source map down the line it adds', () => {
    const mapped = chunk('assets/shell-1.js', 'static');
    mapped.map = { mappings: 'AAAA,CAAC' } as OutputChunk['map'];
    generate([mapped]);
    expect(mapped.map!.mappings).toBe(';AAAA,CAAC');
  });

  it('leaves the server build alone', () => {
    const bundle = generate([chunk('assets/shell-1.js', 'static')], true);
    expect(bundle['assets/shell-1.js']!.code.startsWith(COMPILE_HINT)).toBe(false);
  });
});
