/**
 * Renders the shop's product photography from data/catalog.json.
 *
 *   npm run images -w apps/web            # skips when up to date
 *   npm run images -w apps/web -- --force # always regenerate
 *
 * Every image is drawn as SVG (scripts/images/*: a small 3D-ish furniture
 * renderer, one model per catalog `kind`, see scripts/images/furniture.ts)
 * and rasterised/encoded with sharp into public/img/ using the URL scheme in
 * app/catalog/product-images.ts. Output is deterministic; a manifest with a
 * hash of the catalog plus GENERATOR_VERSION lets builds skip the work.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  DEPARTMENT_IMAGE_ASPECT,
  DEPARTMENT_IMAGE_WIDTHS,
  HERO_IMAGE_ASPECT,
  HERO_IMAGE_WIDTHS,
  HERO_PRODUCT_ID,
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
} from '../app/catalog/product-images.js';
import { parseCatalog, type Catalog } from './images/catalog.js';
import { hasBuilder } from './images/furniture.js';
import { renderDepartmentSvg, renderHeroSvg, renderProductSvg } from './images/scenes.js';

/** Bump whenever the drawing code changes so cached images are regenerated. */
export const GENERATOR_VERSION = 'showroom-images-1';

const scriptDir = dirname(fileURLToPath(import.meta.url));
const catalogPath = resolve(scriptDir, '../../../data/catalog.json');
const publicDir = resolve(scriptDir, '../public');
const productsDir = join(publicDir, 'img/products');
const manifestPath = join(productsDir, 'manifest.json');
/** Directories owned by this script (cleared before a full regeneration). */
const ownedDirs = [productsDir, join(publicDir, 'img/hero'), join(publicDir, 'img/departments')];

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

interface Job {
  label: string;
  svg: () => string;
  renderWidth: number;
  aspect: AspectRatio;
  outputs: { width: number; file: (ext: ImageFormat) => string }[];
}

interface Manifest {
  version: string;
  hash: string;
  generatedAt: string;
  files: number;
  bytes: number;
  seconds: number;
}

function catalogHash(text: string): string {
  return createHash('sha256').update(GENERATOR_VERSION).update('\0').update(text).digest('hex');
}

/** URL path (`/img/...`) → file in public/. */
function publicFile(url: string): string {
  return join(publicDir, url.replace(/^\//, ''));
}

function validate(catalog: Catalog): void {
  const ids = new Set<number>();
  for (const p of catalog.products) {
    if (!Number.isInteger(p.id) || p.id <= 0 || ids.has(p.id))
      throw new Error(`Bad or duplicate product id ${p.id}`);
    ids.add(p.id);
    if (!hasBuilder(p.kind))
      throw new Error(`Product ${p.id}: no illustration for kind "${p.kind}"`);
  }
  if (!ids.has(HERO_PRODUCT_ID))
    throw new Error(`Hero product ${HERO_PRODUCT_ID} is missing from the catalog`);
}

function buildJobs(catalog: Catalog): Job[] {
  const jobs: Job[] = [];
  const maxProductWidth = Math.max(...PRODUCT_IMAGE_WIDTHS);
  for (const product of catalog.products) {
    for (const set of PHOTO_SETS) {
      if (set === 'se' && !product.specialEdition) continue;
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
            file: (ext) => publicFile(productImageUrl(product.id, set, view, width, ext)),
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
        file: (ext) => publicFile(heroImageUrl(width, ext, hero.id)),
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
        file: (ext) => publicFile(departmentImageUrl(dept.slug, width, ext)),
      })),
    });
  }
  return jobs;
}

function expectedFiles(jobs: readonly Job[]): string[] {
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

function readManifest(): Manifest | null {
  try {
    return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const force = process.argv.includes('--force');
  const started = performance.now();
  const text = readFileSync(catalogPath, 'utf8');
  const catalog = parseCatalog(text);
  validate(catalog);
  const hash = catalogHash(text);
  const jobs = buildJobs(catalog);
  const files = expectedFiles(jobs);

  const manifest = readManifest();
  if (
    !force &&
    manifest?.hash === hash &&
    manifest.version === GENERATOR_VERSION &&
    files.every((f) => existsSync(f))
  ) {
    console.log(
      `images up to date (${manifest.files} files, ${(manifest.bytes / 1e6).toFixed(1)} MB)`,
    );
    return;
  }

  for (const dir of ownedDirs) rmSync(dir, { recursive: true, force: true });
  mkdirSync(productsDir, { recursive: true });

  const cores = availableParallelism();
  // One libvips thread per image and ~2 images in flight per core keeps both
  // cores busy without oversubscribing (AVIF encoding is the hot spot).
  sharp.concurrency(1);
  sharp.cache(false);
  const bytes = await pool(jobs, Math.max(2, cores * 2), runJob);

  const seconds = (performance.now() - started) / 1000;
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length > 0)
    throw new Error(
      `Image generation incomplete: ${missing.length} files missing, e.g. ${missing[0]}`,
    );
  const written: Manifest = {
    version: GENERATOR_VERSION,
    hash,
    generatedAt: new Date().toISOString(),
    files: files.length,
    bytes,
    seconds: Math.round(seconds * 10) / 10,
  };
  writeFileSync(manifestPath, `${JSON.stringify(written, null, 2)}\n`);
  console.log(
    `images: ${files.length} files (${jobs.length} renders) in ${seconds.toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB`,
  );
}

// Allow importing helpers in tests without running the generator.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

export { buildJobs, catalogHash, expectedFiles };
