/**
 * Renders the shop's product photography from data/catalog.json.
 *
 * Every image is drawn as SVG (a small 3D-ish furniture renderer, one model per catalog `kind`,
 * see furniture.ts and scenes.ts) and rasterised/encoded with sharp into the output folder (the
 * web's public/img by default) under the URL scheme of @showroom/contracts/product-images.
 * Output is deterministic; a manifest holding the cache key (cache-key.ts) lets builds skip the
 * work while nothing that decides the images' bytes has changed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEPARTMENT_IMAGE_ASPECT,
  DEPARTMENT_IMAGE_WIDTHS,
  HERO_IMAGE_ASPECT,
  HERO_IMAGE_WIDTHS,
  HERO_PRODUCT_ID,
  IMAGE_BASE_PATH,
  IMAGE_FORMATS,
  PHOTO_SETS,
  PHOTO_VIEWS,
  PRODUCT_IMAGE_ASPECT,
  PRODUCT_IMAGE_WIDTHS,
  departmentImageUrl,
  heroImageUrl,
  imageHeight,
  productImageUrl,
  type AspectRatio,
  type ImageFormat,
} from '@showroom/contracts/product-images';
import sharp from 'sharp';
import { changedParts, computeCacheKey, type CacheKey, type CacheKeyParts } from './cache-key.js';
import { loadCatalog, type Catalog } from './catalog.js';
import { renderDepartmentSvg, renderHeroSvg, renderProductSvg } from './scenes.js';

/** This folder: the generator's own sources, hashed into the cache key. */
export const SOURCE_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(SOURCE_DIR, '../../..');
export const CATALOG_FILE = join(REPO_ROOT, 'data', 'catalog.json');
/** Source of @showroom/contracts/product-images (read as text, whichever build is imported). */
export const URL_SCHEME_FILE = join(REPO_ROOT, 'packages', 'contracts', 'src', 'product-images.ts');
/** The folder the web serves at IMAGE_BASE_PATH (`/img`). */
export const DEFAULT_OUT_DIR = join(REPO_ROOT, 'apps', 'web', 'public', 'img');
/** Sub-folders of the output folder this tool owns (cleared before a full regeneration). */
const OWNED_DIRS = ['products', 'hero', 'departments'];
export const MANIFEST_FILE = 'manifest.json';

/**
 * Encoder settings are tuned for a 2-core build box. Measured CPU per view
 * (1200+800+400 px): AVIF effort 2 ≈ 330 ms vs effort 0 ≈ 75 ms (files ~30%
 * larger, still ~7 KB at 800 px), so AVIF uses effort 0; mozjpeg keeps its
 * quant tables, deringing and progressive mode but skips trellis quantisation
 * and scan optimisation (≈ 40 ms instead of ≈ 115 ms, ~10% larger files).
 */
const ENCODERS: Record<ImageFormat, (img: sharp.Sharp) => sharp.Sharp> = {
  avif: (img) => img.avif({ quality: 60, effort: 0 }),
  webp: (img) => img.webp({ quality: 75, effort: 1 }),
  jpg: (img) =>
    img.jpeg({
      quality: 80,
      mozjpeg: true,
      trellisQuantisation: false,
      optimiseScans: false,
      progressive: true,
    }),
};

export interface Job {
  label: string;
  svg: () => string;
  renderWidth: number;
  aspect: AspectRatio;
  outputs: { width: number; file: (ext: ImageFormat) => string }[];
}

export interface Manifest {
  key: string;
  inputs: CacheKeyParts;
  generatedAt: string;
  files: number;
  bytes: number;
  seconds: number;
}

/** URL path (`/img/...`) → file in the output folder. */
export function outputFile(outDir: string, url: string): string {
  const prefix = `${IMAGE_BASE_PATH}/`;
  if (!url.startsWith(prefix)) throw new Error(`Image URL outside ${prefix}: ${url}`);
  return join(outDir, url.slice(prefix.length));
}

export function buildJobs(catalog: Catalog, outDir: string): Job[] {
  const file = (url: string): string => outputFile(outDir, url);
  const jobs: Job[] = [];
  const maxProductWidth = Math.max(...PRODUCT_IMAGE_WIDTHS);
  for (const product of catalog.products) {
    for (const set of PHOTO_SETS) {
      for (const view of PHOTO_VIEWS[set]) {
        jobs.push({
          label: `${product.id}/${set}-${view}`,
          svg: () =>
            renderProductSvg(
              { product, set, view },
              maxProductWidth,
              imageHeight(maxProductWidth, PRODUCT_IMAGE_ASPECT),
            ),
          renderWidth: maxProductWidth,
          aspect: PRODUCT_IMAGE_ASPECT,
          outputs: PRODUCT_IMAGE_WIDTHS.map((width) => ({
            width,
            file: (ext) => file(productImageUrl(product.id, set, view, width, ext)),
          })),
        });
      }
    }
  }
  const hero = catalog.products.find((p) => p.id === HERO_PRODUCT_ID);
  if (hero) {
    const w = Math.max(...HERO_IMAGE_WIDTHS);
    jobs.push({
      label: `hero/table-${hero.id}`,
      svg: () => renderHeroSvg(hero, w, imageHeight(w, HERO_IMAGE_ASPECT)),
      renderWidth: w,
      aspect: HERO_IMAGE_ASPECT,
      outputs: HERO_IMAGE_WIDTHS.map((width) => ({
        width,
        file: (ext) => file(heroImageUrl(width, ext, hero.id)),
      })),
    });
  }
  for (const dept of catalog.departments) {
    const w = Math.max(...DEPARTMENT_IMAGE_WIDTHS);
    jobs.push({
      label: `departments/${dept.slug}`,
      svg: () =>
        renderDepartmentSvg(dept, catalog.products, w, imageHeight(w, DEPARTMENT_IMAGE_ASPECT)),
      renderWidth: w,
      aspect: DEPARTMENT_IMAGE_ASPECT,
      outputs: DEPARTMENT_IMAGE_WIDTHS.map((width) => ({
        width,
        file: (ext) => file(departmentImageUrl(dept.slug, width, ext)),
      })),
    });
  }
  return jobs;
}

export function expectedFiles(jobs: readonly Job[]): string[] {
  return jobs.flatMap((job) => job.outputs.flatMap((o) => IMAGE_FORMATS.map((ext) => o.file(ext))));
}

async function runJob(job: Job): Promise<number> {
  const height = imageHeight(job.renderWidth, job.aspect);
  // Rasterise once at the largest size; every rendition is resized once from
  // raw pixels and then encoded three times.
  const full = await sharp(Buffer.from(job.svg()))
    .resize(job.renderWidth, height, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let bytes = 0;
  for (const out of job.outputs) {
    const h = imageHeight(out.width, job.aspect);
    mkdirSync(dirname(out.file('jpg')), { recursive: true });
    const pixels =
      out.width === full.info.width && h === full.info.height
        ? full
        : await sharp(full.data, { raw: full.info })
            .resize(out.width, h, { fit: 'fill', kernel: 'lanczos3' })
            .raw()
            .toBuffer({ resolveWithObject: true });
    const raw = {
      width: pixels.info.width,
      height: pixels.info.height,
      channels: pixels.info.channels,
    };
    const results = await Promise.all(
      IMAGE_FORMATS.map((ext) => ENCODERS[ext](sharp(pixels.data, { raw })).toFile(out.file(ext))),
    );
    for (const r of results) bytes += r.size;
  }
  return bytes;
}

/** Runs jobs with a small fixed pool (libvips work happens off the JS thread). */
async function pool<T>(
  items: readonly T[],
  size: number,
  fn: (item: T) => Promise<number>,
): Promise<number> {
  let next = 0;
  let total = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      if (item !== undefined) {
        const bytes = await fn(item);
        total += bytes;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return total;
}

export function readManifest(file: string): Partial<Manifest> | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
  } catch {
    return null;
  }
}

/** The cache key of the current tree, with the encoder sharp actually loaded. */
export function currentCacheKey(): CacheKey {
  return computeCacheKey({
    sourceDir: SOURCE_DIR,
    catalogFile: CATALOG_FILE,
    urlSchemeFile: URL_SCHEME_FILE,
    encoder: sharp.versions,
  });
}

/** Why the photos must be generated again, or null when the output is up to date. */
export function regenerationReason(state: {
  force: boolean;
  manifest: Partial<Manifest> | null;
  cacheKey: CacheKey;
  /** How many expected files are absent from the output folder. */
  missing: number;
}): string | null {
  const { force, manifest, cacheKey, missing } = state;
  if (force) return '--force';
  if (!manifest) return 'no manifest';
  if (manifest.key !== cacheKey.key) {
    const changed = changedParts(manifest.inputs, cacheKey.parts);
    return changed.length > 0 ? `changed: ${changed.join(', ')}` : 'new cache key';
  }
  if (missing > 0) return `${missing} files missing`;
  return null;
}

export interface GenerateOptions {
  /** The folder served at `/img`. */
  outDir: string;
  /** Regenerate even when the manifest says the output is up to date. */
  force: boolean;
}

export async function generateImages({ outDir, force }: GenerateOptions): Promise<void> {
  const started = performance.now();
  const catalog = loadCatalog(CATALOG_FILE);
  const cacheKey = currentCacheKey();
  const jobs = buildJobs(catalog, outDir);
  const files = expectedFiles(jobs);
  const manifestFile = join(outDir, MANIFEST_FILE);

  const manifest = readManifest(manifestFile);
  const missing = files.filter((f) => !existsSync(f)).length;
  const reason = regenerationReason({ force, manifest, cacheKey, missing });
  if (reason === null) {
    const mb = ((manifest?.bytes ?? 0) / 1e6).toFixed(1);
    console.log(`images up to date in ${outDir} (${files.length} files, ${mb} MB)`);
    return;
  }
  console.log(`images: generating ${files.length} files into ${outDir} (${reason})`);

  rmSync(manifestFile, { force: true });
  for (const dir of OWNED_DIRS) rmSync(join(outDir, dir), { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });

  const cores = availableParallelism();
  // One libvips thread per image and ~2 images in flight per core keeps both
  // cores busy without oversubscribing (AVIF encoding is the hot spot).
  sharp.concurrency(1);
  sharp.cache(false);
  const bytes = await pool(jobs, Math.max(2, cores * 2), runJob);

  const seconds = (performance.now() - started) / 1000;
  const absent = files.filter((f) => !existsSync(f));
  if (absent.length > 0)
    throw new Error(
      `Image generation incomplete: ${absent.length} files missing, e.g. ${absent[0]}`,
    );
  const written: Manifest = {
    key: cacheKey.key,
    inputs: cacheKey.parts,
    generatedAt: new Date().toISOString(),
    files: files.length,
    bytes,
    seconds: Math.round(seconds * 10) / 10,
  };
  writeFileSync(manifestFile, `${JSON.stringify(written, null, 2)}\n`);
  console.log(
    `images: ${files.length} files (${jobs.length} renders) in ${seconds.toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB`,
  );
}
