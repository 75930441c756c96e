/**
 * Single source of truth for the generated image URL scheme.
 *
 * Files are produced by the image tool (tools/images) into the web's
 * `public/img/` and served from `/img/`:
 *
 *   /img/products/{id}/{set}-{view}-{width}.{ext}      4:3, widths 400/800/1200
 *   /img/hero/table-{id}-{width}.{ext}                 16:9, widths 640/1280/1920
 *   /img/departments/{slug}-{width}.{ext}              4:3, widths 400/800
 *
 * Pure module: no DOM, window, storage or file-system access (safe in the
 * browser, on the server and in the image tool). The image tool hashes this
 * file into its cache key, so any change here regenerates the photos.
 */

export const IMAGE_BASE_PATH = '/img';

/** Encodings, best first; `jpg` is the universal fallback used for `<img src>`. */
export const IMAGE_FORMATS = ['avif', 'webp', 'jpg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const IMAGE_MIME_TYPES: Readonly<Record<ImageFormat, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
};

export interface AspectRatio {
  readonly width: number;
  readonly height: number;
}

export const PRODUCT_IMAGE_ASPECT: AspectRatio = { width: 4, height: 3 };
export const PRODUCT_IMAGE_WIDTHS = [400, 800, 1200] as const;
export type ProductImageWidth = (typeof PRODUCT_IMAGE_WIDTHS)[number];

/**
 * Photo sets: `std` standard photos, `new` the alternative "new product
 * photos" styling, `se` the special edition.
 */
export const PHOTO_SETS = ['std', 'new', 'se'] as const;
export type PhotoSet = (typeof PHOTO_SETS)[number];

/** 0 = room scene (hero), 1 = studio front view, 2 = close-up detail. */
export type PhotoView = 0 | 1 | 2;

export const PHOTO_VIEWS: Readonly<Record<PhotoSet, readonly PhotoView[]>> = {
  std: [0, 1, 2],
  new: [0, 1, 2],
  se: [0, 1],
};

export const HERO_PRODUCT_ID = 10;
export const HERO_IMAGE_ASPECT: AspectRatio = { width: 16, height: 9 };
export const HERO_IMAGE_WIDTHS = [640, 1280, 1920] as const;
export type HeroImageWidth = (typeof HERO_IMAGE_WIDTHS)[number];
/** `sizes` used by both the hero `<img>` and its preload link (they must match). */
export const HERO_IMAGE_SIZES = '100vw';

export const DEPARTMENT_IMAGE_ASPECT: AspectRatio = PRODUCT_IMAGE_ASPECT;
export const DEPARTMENT_IMAGE_WIDTHS = [400, 800] as const;
export type DepartmentImageWidth = (typeof DEPARTMENT_IMAGE_WIDTHS)[number];

/** Height in pixels for a width at the given aspect ratio (always an integer). */
export function imageHeight(width: number, aspect: AspectRatio = PRODUCT_IMAGE_ASPECT): number {
  return Math.round((width * aspect.height) / aspect.width);
}

export function isPhotoSet(value: unknown): value is PhotoSet {
  return typeof value === 'string' && (PHOTO_SETS as readonly string[]).includes(value);
}

export function hasView(set: PhotoSet, view: number): view is PhotoView {
  return (PHOTO_VIEWS[set] as readonly number[]).includes(view);
}

/** Views available for a set, e.g. to render a gallery. */
export function viewsFor(set: PhotoSet): readonly PhotoView[] {
  return PHOTO_VIEWS[set];
}

/** Clamps a requested view to one that exists for the set (`se` has no close-up). */
export function normalizeView(set: PhotoSet, view: number): PhotoView {
  if (hasView(set, view)) return view;
  return PHOTO_VIEWS[set][0] ?? 0;
}

function assertProductId(id: number): void {
  if (!Number.isInteger(id) || id <= 0) throw new RangeError(`Invalid product id: ${id}`);
}

export function productImageUrl(
  id: number,
  set: PhotoSet,
  view: PhotoView,
  width: ProductImageWidth,
  ext: ImageFormat,
): string {
  assertProductId(id);
  if (!hasView(set, view)) throw new RangeError(`Photo set "${set}" has no view ${view}`);
  return `${IMAGE_BASE_PATH}/products/${id}/${set}-${view}-${width}.${ext}`;
}

/** Builds a `srcset` value ("url 400w, url 800w, …") from a URL factory. */
export function buildSrcSet<W extends number>(
  widths: readonly W[],
  url: (width: W) => string,
): string {
  return widths.map((w) => `${url(w)} ${w}w`).join(', ');
}

/** `srcset` for one product photo in one format, across all product widths. */
export function srcSet(id: number, set: PhotoSet, view: PhotoView, ext: ImageFormat): string {
  return buildSrcSet(PRODUCT_IMAGE_WIDTHS, (w) => productImageUrl(id, set, view, w, ext));
}

export interface PictureSource {
  /** MIME type for `<source type>`. */
  type: string;
  srcSet: string;
}

/** Everything needed to render a responsive `<picture>`. */
export interface ResponsiveImage {
  /** AVIF and WebP `<source>` entries, best first. */
  sources: PictureSource[];
  /** JPEG fallback for `<img src>` (a mid-size width). */
  src: string;
  /** JPEG `srcset` for the `<img>`. */
  srcSet: string;
  /** Intrinsic size of the largest rendition, for the `width`/`height` attributes. */
  width: number;
  height: number;
}

function responsive<W extends number>(
  widths: readonly W[],
  aspect: AspectRatio,
  url: (width: W, ext: ImageFormat) => string,
  fallbackWidth: W,
): ResponsiveImage {
  const largest = widths[widths.length - 1] ?? fallbackWidth;
  return {
    sources: IMAGE_FORMATS.filter((ext) => ext !== 'jpg').map((ext) => ({
      type: IMAGE_MIME_TYPES[ext],
      srcSet: buildSrcSet(widths, (w) => url(w, ext)),
    })),
    src: url(fallbackWidth, 'jpg'),
    srcSet: buildSrcSet(widths, (w) => url(w, 'jpg')),
    width: largest,
    height: imageHeight(largest, aspect),
  };
}

export function productImage(id: number, set: PhotoSet, view: PhotoView): ResponsiveImage {
  assertProductId(id);
  const v = normalizeView(set, view);
  return responsive(
    PRODUCT_IMAGE_WIDTHS,
    PRODUCT_IMAGE_ASPECT,
    (w, ext) => productImageUrl(id, set, v, w, ext),
    800,
  );
}

export function heroImageUrl(
  width: HeroImageWidth,
  ext: ImageFormat,
  productId: number = HERO_PRODUCT_ID,
): string {
  assertProductId(productId);
  return `${IMAGE_BASE_PATH}/hero/table-${productId}-${width}.${ext}`;
}

/** The landing-page banner (a wide room scene with the hero table). */
export function heroImage(productId: number = HERO_PRODUCT_ID): ResponsiveImage {
  return responsive(
    HERO_IMAGE_WIDTHS,
    HERO_IMAGE_ASPECT,
    (w, ext) => heroImageUrl(w, ext, productId),
    1280,
  );
}

export function departmentImageUrl(
  slug: string,
  width: DepartmentImageWidth,
  ext: ImageFormat,
): string {
  if (!/^[a-z0-9-]+$/.test(slug)) throw new RangeError(`Invalid department slug: ${slug}`);
  return `${IMAGE_BASE_PATH}/departments/${slug}-${width}.${ext}`;
}

/** Small banner for a department tile on the home page. */
export function departmentImage(slug: string): ResponsiveImage {
  return responsive(
    DEPARTMENT_IMAGE_WIDTHS,
    DEPARTMENT_IMAGE_ASPECT,
    (w, ext) => departmentImageUrl(slug, w, ext),
    400,
  );
}

/**
 * Every file path (relative to `public/`) the generator must produce for a
 * product; used by the generator and by tests to keep both sides in sync.
 */
export function productImageFiles(id: number): string[] {
  const files: string[] = [];
  for (const set of PHOTO_SETS) {
    for (const view of PHOTO_VIEWS[set]) {
      for (const width of PRODUCT_IMAGE_WIDTHS) {
        for (const ext of IMAGE_FORMATS)
          files.push(productImageUrl(id, set, view, width, ext).slice(1));
      }
    }
  }
  return files;
}
