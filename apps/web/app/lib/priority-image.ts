/**
 * The Element Timing name (`elementtiming`) of an above-the-fold image, the page's largest
 * element: the browser reports when it was painted, and the page's scripts wait for that
 * (lib/scripts-after-paint.server.ts, decision 022).
 */
export const PRIORITY_IMAGE_TIMING = 'priority-image';
