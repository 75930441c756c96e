/**
 * The cache key of the generated photos: a hash of everything that decides their bytes. A build
 * skips generation only when the key in the output's manifest equals the key of the current tree,
 * so editing one line of the renderer, the catalog or the URL scheme regenerates the photos.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CacheKeyInputs {
  /** Folder of the generator's own sources; every file counts except tests. */
  sourceDir: string;
  /** data/catalog.json. */
  catalogFile: string;
  /** The URL scheme module: widths, formats, aspect ratios and file names. */
  urlSchemeFile: string;
  /** Versions of the encoder and its libraries (sharp, libvips, rsvg, …). */
  encoder: Readonly<Record<string, string | undefined>>;
}

/** One hash per input, so a rebuild can say what changed. */
export interface CacheKeyParts {
  sources: string;
  catalog: string;
  urlScheme: string;
  encoder: string;
}

export interface CacheKey {
  key: string;
  parts: CacheKeyParts;
}

const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

function sha256(...chunks: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk).update('\0');
  return hash.digest('hex');
}

/**
 * Every file under `dir` except tests, as `/`-separated paths relative to `dir`, in code-unit
 * order (not locale order, so every machine reads them in the same sequence).
 */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  const visit = (relative: string): void => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && !TEST_FILE.test(entry.name)) files.push(path);
    }
  };
  visit('');
  return files.sort();
}

/** Hash of the files' names and bytes: renaming, adding or removing a file changes it too. */
export function hashSources(dir: string): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles(dir)) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(dir, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

export function computeCacheKey(inputs: CacheKeyInputs): CacheKey {
  const encoder = Object.entries(inputs.encoder)
    .filter(([, version]) => version !== undefined)
    .map(([name, version]) => `${name} ${version}`)
    .sort()
    .join(', ');
  const parts: CacheKeyParts = {
    sources: hashSources(inputs.sourceDir),
    catalog: sha256(readFileSync(inputs.catalogFile)),
    urlScheme: sha256(readFileSync(inputs.urlSchemeFile)),
    encoder: sha256(encoder),
  };
  return {
    key: sha256(parts.sources, parts.catalog, parts.urlScheme, parts.encoder),
    parts,
  };
}

const PART_NAMES: Readonly<Record<keyof CacheKeyParts, string>> = {
  sources: 'generator sources',
  catalog: 'catalog',
  urlScheme: 'URL scheme',
  encoder: 'encoder version',
};

/** Names of the inputs whose hash differs from a previous key's (all of them when unknown). */
export function changedParts(
  previous: Partial<CacheKeyParts> | undefined,
  current: CacheKeyParts,
): string[] {
  return (Object.keys(PART_NAMES) as (keyof CacheKeyParts)[])
    .filter((name) => previous?.[name] !== current[name])
    .map((name) => PART_NAMES[name]);
}
