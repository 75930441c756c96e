/**
 * Fault flags (docs/decisions/010-fault-flags.md): flags of the shop's own flag service that the
 * api evaluates for the shopper of each request, so a presenter can aim a failure at one team
 * or a share of shoppers from /flags. One list for the api (which acts on them), the web (which
 * shows and reports their effects) and the scenario catalogue. No TypeBox here: the browser
 * imports this module at run time (decision 006).
 */

/** Most milliseconds a latency fault adds (a larger flag value counts as this). */
export const MAX_FAULT_LATENCY_MS = 30_000;
/** The longest delay the web server honours for one image. */
export const IMAGE_DELAY_MAX_MS = 10_000;

/**
 * Each fault flag: its UFC variation type, the value that means "no fault" (also the flag's
 * default), the largest value that counts (integers), and what it does.
 */
export const FAULT_FLAGS = {
  fault_product_api_latency_ms: {
    type: 'INTEGER',
    off: 0,
    max: MAX_FAULT_LATENCY_MS,
    description:
      'Milliseconds added to GET /products/:id and department listings (the product document is slow).',
  },
  fault_payment_decline_percent: {
    type: 'INTEGER',
    off: 0,
    max: 100,
    description:
      'Share (0–100) of place-order requests the simulated gateway declines, drawn per order.',
  },
  fault_slow_product_images_ms: {
    type: 'INTEGER',
    off: 0,
    max: IMAGE_DELAY_MAX_MS,
    description: 'Milliseconds the web server waits before serving the product images it names.',
  },
  fault_broken_product_images: {
    type: 'BOOLEAN',
    off: false,
    description: 'Product image URLs point at a path that answers 404.',
  },
  fault_recommendations_error: {
    type: 'BOOLEAN',
    off: false,
    description: "The product page's recommendations call answers 503 SERVICE_UNAVAILABLE.",
  },
  fault_cart_query_latency_ms: {
    type: 'INTEGER',
    off: 0,
    max: MAX_FAULT_LATENCY_MS,
    description: "Milliseconds added to the cart's database query on GET /cart (a slow query).",
  },
} as const;

export type FaultFlagKey = keyof typeof FAULT_FLAGS;
/** A fault's value: a number of milliseconds or percent, or a switch. */
export type FaultValue<K extends FaultFlagKey> = (typeof FAULT_FLAGS)[K]['type'] extends 'BOOLEAN'
  ? boolean
  : number;

export const FAULT_FLAG_KEYS = Object.keys(FAULT_FLAGS) as FaultFlagKey[];

/** The allocation of every fault flag that serves the fault; rollout and rules aim it. */
export const FAULT_ALLOCATION_KEY = 'fault-on';

/**
 * The messages of the browser monitoring (RUM) errors that report a fault's effect; stable, so
 * the scenario rules can match them exactly.
 */
export const FAULT_RUM_ERRORS = {
  /** One per declined place-order (any CARD_DECLINED answer, the fault's or a real one). */
  paymentDeclined: 'Payment declined: the payment gateway declined the card',
  /** One per product image URL that failed to load. */
  productImageFailed: 'Product image failed to load',
  /** Once per product page whose recommendations could not be loaded. */
  recommendationsFailed: 'Recommendations failed to load',
} as const;

/**
 * Slow images are served under `/img-slow/<ms>/…`: the web server waits that long (at most
 * IMAGE_DELAY_MAX_MS), then serves the file of `/img/…`, uncached. A delayed URL differs from
 * the normal one, so no cache answers one for the other.
 */
export const SLOW_IMAGE_PATH = '/img-slow';
/** Broken images point under `…/missing/`, where no file is ever generated: each answers 404. */
export const MISSING_IMAGE_DIR = 'missing';

/**
 * How the api tells the web to change a product's image URLs (the `imageHint` of a product in
 * catalog answers), present only while an image fault flag is aimed at the shopper. The web
 * serves the product's images from `base` instead of `/img/`; `delayMs` and `broken` say why.
 */
export interface ImageHint {
  /** `/img-slow/<ms>/`, `/img/missing/` or `/img-slow/<ms>/missing/`. */
  base: string;
  /** The web server waits this long (at most IMAGE_DELAY_MAX_MS) before serving each image. */
  delayMs?: number;
  /** The URLs point at a path that 404s. */
  broken?: boolean;
}

/** The hint for a shopper's image faults (the api's side); undefined when neither is on. */
export function imageHintFor(delayMs: number, broken: boolean): ImageHint | undefined {
  if (delayMs <= 0 && !broken) return undefined;
  const slow = delayMs > 0 ? `${SLOW_IMAGE_PATH}/${delayMs}/` : '/img/';
  return {
    base: broken ? `${slow}${MISSING_IMAGE_DIR}/` : slow,
    ...(delayMs > 0 ? { delayMs } : {}),
    ...(broken ? { broken } : {}),
  };
}

/**
 * Image URLs as a hint changes them (the web's side): one URL or a whole `srcset`, every
 * `/img/` moved to the hint's base (`/img/products/1/std-0-800.jpg` →
 * `/img-slow/3000/missing/products/1/std-0-800.jpg`).
 */
export function hintedImageUrls(urls: string, hint: ImageHint | undefined): string {
  return hint ? urls.replaceAll('/img/', hint.base) : urls;
}
