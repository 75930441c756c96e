import express from 'express';
import { IMAGE_DELAY_MAX_MS } from '@showroom/contracts/faults';

/**
 * `/img-slow/<ms>/<path>`: the image `/img/<path>` after a wait of `<ms>` milliseconds (at most
 * `maxMs`), never cached, so each view of a slow image is slow. The api decides per shopper
 * which URLs are slow (the `fault_slow_product_images_ms` fault flag, decision 010); this
 * server only honours the URL. A missing file answers 404; a delay that is not a whole number
 * of milliseconds from 1 up answers 404 at once.
 */
export function slowImages(
  imageDir: string,
  { maxMs = IMAGE_DELAY_MAX_MS }: { maxMs?: number } = {},
): express.Router {
  const files = express.static(imageDir, { cacheControl: false, fallthrough: false, index: false });
  const router = express.Router();
  router.use('/:ms', (request, response, next) => {
    const raw = request.params.ms;
    if (!/^[1-9][0-9]{0,8}$/.test(raw)) {
      response.status(404).end();
      return;
    }
    response.setHeader('Cache-Control', 'no-store');
    setTimeout(() => files(request, response, next), Math.min(Number(raw), maxMs));
  });
  return router;
}
