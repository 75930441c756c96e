import { useContext } from 'react';
import { preload } from 'react-dom';
import { InlinePreviewContext } from './inline-preview';
import { PRIORITY_IMAGE_TIMING } from '../lib/priority-image';
import { hintedImageUrls, type ImageHint } from '@showroom/contracts/faults';
import { reportFault } from '../monitoring/track';
import {
  HERO_IMAGE_SIZES,
  HERO_PRODUCT_ID,
  departmentImage,
  heroImage,
  productImage,
  type PhotoSet,
  type PhotoView,
  type ResponsiveImage,
} from '@showroom/contracts/product-images';

/** The inline stand-in is at least this wide: on a phone it is then as sharp as the image. */
const PREVIEW_MIN_WIDTH = 480;

/** The smallest rendition of `source` at least PREVIEW_MIN_WIDTH wide (else its largest). */
function previewUrl(source: { srcSet: string }): string {
  const candidates = source.srcSet.split(',').map((entry) => {
    const [url = '', width = '0w'] = entry.trim().split(' ');
    return { url, width: Number.parseInt(width, 10) };
  });
  const wide = candidates.filter((candidate) => candidate.width >= PREVIEW_MIN_WIDTH);
  const pool = wide.length > 0 ? wide : candidates;
  return pool.reduce((best, candidate) =>
    (wide.length > 0 ? candidate.width < best.width : candidate.width > best.width)
      ? candidate
      : best,
  ).url;
}

interface PictureProps {
  image: ResponsiveImage;
  alt: string;
  sizes: string;
  priority: boolean;
  className: string | undefined;
  /** Called with the `<img>` when React attaches to it and when it fails to load. */
  watch?: (img: HTMLImageElement | null) => void;
}

/**
 * A product photo that failed (decision 010): one RUM error per URL. Checked when React
 * attaches to the image too, since it may have failed before the page was interactive.
 */
function reportIfBroken(img: HTMLImageElement | null) {
  if (img?.complete && !img.naturalWidth && img.currentSrc) {
    reportFault('productImageFailed', img.currentSrc);
  }
}

/**
 * `<picture>` with AVIF and WebP sources and a JPEG `<img>` fallback. Explicit
 * width/height reserve the box before the image loads (no layout shift); style
 * the `<img>` with `width: 100%; height: auto` (or `object-fit`) via className.
 */
function ResponsivePicture({ image, alt, sizes, priority, className, watch }: PictureProps) {
  // An above-the-fold image (often the LCP element) is announced in the document head, so its
  // download starts before the body is parsed and ahead of the scripts. Only the first (AVIF)
  // source: browsers skip a preload whose type they cannot decode.
  const preferred = image.sources[0];
  if (priority && preferred) {
    preload(preferred.srcSet.split(' ')[0] ?? image.src, {
      as: 'image',
      imageSrcSet: preferred.srcSet,
      imageSizes: sizes,
      type: preferred.type,
      fetchPriority: 'high',
    });
  }
  // A rendition at least PREVIEW_MIN_WIDTH wide (as wide as a phone shows it), inline in the
  // document, stands in until the browser's choice loads.
  const takePreview = useContext(InlinePreviewContext);
  const preview = priority && takePreview && preferred ? takePreview(previewUrl(preferred)) : null;
  return (
    <picture>
      {image.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        src={image.src}
        srcSet={image.srcSet}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        className={className}
        loading={priority ? 'eager' : 'lazy'}
        decoding={priority ? undefined : 'async'}
        fetchPriority={priority ? 'high' : undefined}
        elementtiming={priority ? PRIORITY_IMAGE_TIMING : undefined}
        style={
          preview ? { backgroundImage: `url(${preview})`, backgroundSize: 'cover' } : undefined
        }
        // The browser renders without the preview; the server's attribute stays (not patched).
        suppressHydrationWarning={priority}
        ref={watch}
        onError={watch && ((event) => watch(event.currentTarget))}
      />
    </picture>
  );
}

export interface ProductImageProps {
  productId: number;
  /** `std` standard photos, `new` alternative photo set, `se` special edition. */
  set: PhotoSet;
  /** 0 room scene, 1 studio front view, 2 close-up (falls back to 0 for `se`). */
  view: PhotoView;
  alt: string;
  /** Rendered width hint, e.g. `(min-width: 1024px) 25vw, 50vw`. */
  sizes: string;
  /** Above-the-fold image: eager load with high fetch priority. */
  priority?: boolean;
  /** Applied to the `<img>`. */
  className?: string;
  /** The api's image hint for this product (an image fault flag, decision 010). */
  hint?: ImageHint | undefined;
}

export function ProductImage({
  productId,
  set,
  view,
  alt,
  sizes,
  priority = false,
  className,
  hint,
}: ProductImageProps) {
  const image = productImage(productId, set, view);
  const hinted = (urls: string) => hintedImageUrls(urls, hint);
  return (
    <ResponsivePicture
      image={{
        ...image,
        src: hinted(image.src),
        srcSet: hinted(image.srcSet),
        sources: image.sources.map((source) => ({ ...source, srcSet: hinted(source.srcSet) })),
      }}
      alt={alt}
      sizes={sizes}
      priority={priority}
      className={className}
      watch={reportIfBroken}
    />
  );
}

export interface HeroImageProps {
  alt: string;
  /** Rendered width; defaults to HERO_IMAGE_SIZES (`100vw`). */
  sizes?: string;
  productId?: number;
  className?: string;
}

/** Landing-page banner of the hero table; always high priority (LCP candidate). */
export function HeroImage({
  alt,
  sizes = HERO_IMAGE_SIZES,
  productId = HERO_PRODUCT_ID,
  className,
}: HeroImageProps) {
  return (
    <ResponsivePicture
      image={heroImage(productId)}
      alt={alt}
      sizes={sizes}
      priority
      className={className}
    />
  );
}

/** Default `sizes` for home-page department tiles (renditions are 400 and 800 px wide). */
export const DEPARTMENT_IMAGE_SIZES = '(max-width: 640px) 50vw, 320px';

export interface DepartmentImageProps {
  slug: string;
  alt: string;
  sizes?: string;
  priority?: boolean;
  className?: string;
}

/** Small 4:3 banner for a department tile. */
export function DepartmentImage({
  slug,
  alt,
  sizes = DEPARTMENT_IMAGE_SIZES,
  priority = false,
  className,
}: DepartmentImageProps) {
  return (
    <ResponsivePicture
      image={departmentImage(slug)}
      alt={alt}
      sizes={sizes}
      priority={priority}
      className={className}
    />
  );
}
