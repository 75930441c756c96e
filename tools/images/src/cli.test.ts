import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions } from './cli.js';
import { DEFAULT_OUT_DIR } from './generate.js';

describe('parseOptions', () => {
  it("defaults to the web's public/img without forcing", () => {
    expect(parseOptions([], {}, '/repo/tools/images')).toEqual({
      force: false,
      outDir: DEFAULT_OUT_DIR,
    });
    expect(DEFAULT_OUT_DIR.endsWith(join('apps', 'web', 'public', 'img'))).toBe(true);
  });

  it('takes --force and --out-dir, relative to where npm was run', () => {
    expect(parseOptions(['--force'], {}, '/x')).toEqual({ force: true, outDir: DEFAULT_OUT_DIR });
    expect(
      parseOptions(['--out-dir', 'out/img'], { INIT_CWD: '/repo' }, '/repo/tools/images'),
    ).toEqual({ force: false, outDir: join('/repo', 'out', 'img') });
    expect(parseOptions(['--out-dir=/abs/img'], {}, '/x').outDir).toBe(join('/abs', 'img'));
  });

  it('reads IMAGES_OUT_DIR when no --out-dir is given', () => {
    expect(parseOptions([], { IMAGES_OUT_DIR: 'tmp/img' }, '/work').outDir).toBe(
      join('/work', 'tmp', 'img'),
    );
    expect(parseOptions(['--out-dir', '/a'], { IMAGES_OUT_DIR: '/b' }, '/work').outDir).toBe(
      join('/a'),
    );
  });

  it('rejects unknown options', () => {
    expect(() => parseOptions(['--fast'], {}, '/x')).toThrow(/--fast/);
  });
});
