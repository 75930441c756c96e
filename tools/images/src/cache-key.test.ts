import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  changedParts,
  computeCacheKey,
  hashSources,
  sourceFiles,
  type CacheKeyInputs,
} from './cache-key.js';
import { CATALOG_FILE, SOURCE_DIR, URL_SCHEME_FILE } from './generate.js';

const ENCODER = { sharp: '0.34.5', vips: '8.17.3' };

/** Replaces the first occurrence of `from` in a file, failing when it is not there. */
function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text, `${file} should contain ${from}`).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

describe('cache key', () => {
  let dir: string;
  let inputs: CacheKeyInputs;

  // A temp copy of every input, so edits never touch the real tree.
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'showroom-images-key-'));
    cpSync(SOURCE_DIR, join(dir, 'src'), { recursive: true });
    cpSync(CATALOG_FILE, join(dir, 'catalog.json'));
    cpSync(URL_SCHEME_FILE, join(dir, 'product-images.ts'));
    inputs = {
      sourceDir: join(dir, 'src'),
      catalogFile: join(dir, 'catalog.json'),
      urlSchemeFile: join(dir, 'product-images.ts'),
      encoder: ENCODER,
    };
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is the same for an unchanged tree, wherever it lies', () => {
    const copy = computeCacheKey(inputs);
    expect(copy.key).toMatch(/^[0-9a-f]{64}$/);
    expect(computeCacheKey(inputs)).toEqual(copy);
    const real = computeCacheKey({
      sourceDir: SOURCE_DIR,
      catalogFile: CATALOG_FILE,
      urlSchemeFile: URL_SCHEME_FILE,
      encoder: { vips: '8.17.3', sharp: '0.34.5' },
    });
    expect(real).toEqual(copy);
  });

  it('changes when one line of a generator source changes', () => {
    const before = computeCacheKey(inputs);
    // One colour constant of the furniture models.
    edit(
      join(inputs.sourceDir, 'furniture.ts'),
      "export const BRASS = '#c9a045';",
      "export const BRASS = '#c9a046';",
    );
    const after = computeCacheKey(inputs);
    expect(after.key).not.toBe(before.key);
    expect(changedParts(before.parts, after.parts)).toEqual(['generator sources']);
  });

  it('changes when the entry point or the encoder settings change', () => {
    const before = computeCacheKey(inputs).key;
    edit(join(inputs.sourceDir, 'generate.ts'), 'quality: 60', 'quality: 61');
    expect(computeCacheKey(inputs).key).not.toBe(before);
  });

  it('sees added, removed and renamed sources but not tests', () => {
    const base = hashSources(inputs.sourceDir);
    writeFileSync(join(inputs.sourceDir, 'extra.test.ts'), 'export {};\n');
    expect(hashSources(inputs.sourceDir)).toBe(base);

    mkdirSync(join(inputs.sourceDir, 'models'));
    writeFileSync(join(inputs.sourceDir, 'models', 'lamp.ts'), 'export {};\n');
    const added = hashSources(inputs.sourceDir);
    expect(added).not.toBe(base);

    cpSync(
      join(inputs.sourceDir, 'models', 'lamp.ts'),
      join(inputs.sourceDir, 'models', 'light.ts'),
    );
    rmSync(join(inputs.sourceDir, 'models', 'lamp.ts'));
    expect(hashSources(inputs.sourceDir)).not.toBe(added);

    rmSync(join(inputs.sourceDir, 'models'), { recursive: true });
    expect(hashSources(inputs.sourceDir)).toBe(base);
    rmSync(join(inputs.sourceDir, 'rng.ts'));
    expect(hashSources(inputs.sourceDir)).not.toBe(base);
  });

  it('reads sources in a stable order, subfolders included, tests left out', () => {
    mkdirSync(join(inputs.sourceDir, 'b'));
    writeFileSync(join(inputs.sourceDir, 'b', 'z.ts'), '');
    writeFileSync(join(inputs.sourceDir, 'B.ts'), '');
    const files = sourceFiles(inputs.sourceDir);
    expect(files).toEqual([...files].sort());
    expect(files).toContain('b/z.ts');
    expect(files).toContain('scenes.ts');
    expect(files.filter((f) => f.includes('.test.'))).toEqual([]);
    expect(files.indexOf('B.ts')).toBeLessThan(files.indexOf('b/z.ts'));
  });

  it('changes when the catalog changes', () => {
    const before = computeCacheKey(inputs);
    edit(inputs.catalogFile, '"priceCents": ', '"priceCents": 1');
    const after = computeCacheKey(inputs);
    expect(after.key).not.toBe(before.key);
    expect(changedParts(before.parts, after.parts)).toEqual(['catalog']);
  });

  it('changes when an image width or the URL scheme changes', () => {
    const before = computeCacheKey(inputs);
    edit(
      inputs.urlSchemeFile,
      'PRODUCT_IMAGE_WIDTHS = [400, 800, 1200]',
      'PRODUCT_IMAGE_WIDTHS = [400, 800, 1600]',
    );
    const widened = computeCacheKey(inputs);
    expect(widened.key).not.toBe(before.key);
    expect(changedParts(before.parts, widened.parts)).toEqual(['URL scheme']);

    edit(inputs.urlSchemeFile, "'/img'", "'/images'");
    expect(computeCacheKey(inputs).key).not.toBe(widened.key);
  });

  it('changes with the encoder version, not with the order it lists libraries in', () => {
    const before = computeCacheKey(inputs);
    expect(computeCacheKey({ ...inputs, encoder: { vips: '8.17.3', sharp: '0.34.5' } })).toEqual(
      before,
    );
    const upgraded = computeCacheKey({ ...inputs, encoder: { ...ENCODER, vips: '8.18.0' } });
    expect(upgraded.key).not.toBe(before.key);
    expect(changedParts(before.parts, upgraded.parts)).toEqual(['encoder version']);
  });

  it('names every input as changed when there is no previous key', () => {
    expect(changedParts(undefined, computeCacheKey(inputs).parts)).toEqual([
      'generator sources',
      'catalog',
      'URL scheme',
      'encoder version',
    ]);
  });
});
