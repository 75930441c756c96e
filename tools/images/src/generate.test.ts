import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalog } from './catalog.js';
import {
  CATALOG_FILE,
  MANIFEST_FILE,
  buildJobs,
  currentCacheKey,
  expectedFiles,
  generateImages,
  outputFile,
  regenerationReason,
  type Manifest,
} from './generate.js';

describe('regenerationReason', () => {
  const cacheKey = currentCacheKey();
  const manifest: Manifest = {
    key: cacheKey.key,
    inputs: cacheKey.parts,
    generatedAt: '2026-01-01T00:00:00.000Z',
    files: 1,
    bytes: 1,
    seconds: 1,
  };

  it('skips only when the key matches and every file is there', () => {
    expect(regenerationReason({ force: false, manifest, cacheKey, missing: 0 })).toBeNull();
    expect(regenerationReason({ force: true, manifest, cacheKey, missing: 0 })).toBe('--force');
    expect(regenerationReason({ force: false, manifest: null, cacheKey, missing: 0 })).toBe(
      'no manifest',
    );
    expect(regenerationReason({ force: false, manifest, cacheKey, missing: 3 })).toBe(
      '3 files missing',
    );
  });

  it('says which input changed', () => {
    const stale = {
      ...manifest,
      key: 'old',
      inputs: { ...cacheKey.parts, sources: 'old', catalog: 'old' },
    };
    expect(regenerationReason({ force: false, manifest: stale, cacheKey, missing: 0 })).toBe(
      'changed: generator sources, catalog',
    );
    // A manifest written before the key had parts (or by hand).
    expect(
      regenerationReason({ force: false, manifest: { key: 'old' }, cacheKey, missing: 0 }),
    ).toBe('changed: generator sources, catalog, URL scheme, encoder version');
  });
});

describe('generateImages', () => {
  let dir: string | undefined;
  afterEach(() => {
    vi.restoreAllMocks();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('leaves an output folder alone when its manifest has the current key', async () => {
    dir = mkdtempSync(join(tmpdir(), 'showroom-images-out-'));
    const files = expectedFiles(buildJobs(loadCatalog(CATALOG_FILE), dir));
    for (const file of files) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, 'placeholder');
    }
    const { key, parts } = currentCacheKey();
    const manifest = {
      key,
      inputs: parts,
      generatedAt: '',
      files: files.length,
      bytes: 0,
      seconds: 0,
    };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);

    await generateImages({ outDir: dir, force: false });

    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.[0]).toMatch(/^images up to date in /);
    expect(readFileSync(files[0] ?? '', 'utf8')).toBe('placeholder');
    expect(readFileSync(files.at(-1) ?? '', 'utf8')).toBe('placeholder');
  });
});

describe('outputFile', () => {
  it('maps /img URLs into the output folder and refuses others', () => {
    expect(outputFile('/srv/img', '/img/products/1/std-0-400.jpg')).toBe(
      join('/srv/img', 'products', '1', 'std-0-400.jpg'),
    );
    expect(() => outputFile('/srv/img', '/static/x.jpg')).toThrow('outside /img/');
  });
});
