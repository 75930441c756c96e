import { Transform, type TransformCallback } from 'node:stream';
import { PRIORITY_IMAGE_TIMING } from './priority-image';

/** How long the scripts wait at most for the page's priority images (a slow image fault). */
export const PRIORITY_IMAGE_WAIT_MS = 1_000;

/** The rel a module preload link has until the scripts start: no browser fetches it. */
export const WAITING_PRELOAD_REL = 'modulepreload-after-paint';
/** The type React Router's module script has until the scripts start: no browser runs it. */
export const WAITING_MODULE_TYPE = 'module-after-paint';

/**
 * Run in the browser, first thing in React Router's context script (after the page's content,
 * before its module script). It waits until the page's priority images (the largest element,
 * named PRIORITY_IMAGE_TIMING for Element Timing by components/product-image.tsx) have been
 * painted, as their Element Timing entries tell, or failed; on a page without one, until
 * the first largest-contentful-paint entry; where the browser has neither API, until a frame
 * after the images loaded. At most PRIORITY_IMAGE_WAIT_MS; a hidden page does not wait. Then the
 * module preloads become preloads again and the module script is put back as React Router wrote
 * it, so the page hydrates: the document is what React rendered, so hydration finds what it
 * expects. A module script the parser has not finished is looked for again every 10 ms until
 * the document is parsed (waiting for DOMContentLoaded would wait for the parts React streams
 * later, such as a product page's recommendations). Finished means a node follows it: the
 * parser puts the element in the document at its start tag, and its text may still be on the
 * way in the next network chunk (copied then, the page would run an empty or cut script and
 * never hydrate).
 */
export const START_SCRIPTS_AFTER_PAINT = `(function(){
var started=false;
function start(){
if(started)return;
var waiting=document.querySelector('script[type="${WAITING_MODULE_TYPE}"]');
var loading=document.readyState==="loading";
if(!waiting||(loading&&!waiting.nextSibling)){if(loading)setTimeout(start,10);return}
started=true;
document.querySelectorAll('link[rel="${WAITING_PRELOAD_REL}"]').forEach(function(link){link.rel="modulepreload"});
var script=document.createElement("script");
script.type="module";script.async=true;script.nonce=waiting.nonce;script.text=waiting.text;
waiting.replaceWith(script)}
if(document.visibilityState==="hidden")return start();
setTimeout(start,${PRIORITY_IMAGE_WAIT_MS});
function soon(){setTimeout(start,0)}
var images=[].slice.call(document.querySelectorAll('img[elementtiming="${PRIORITY_IMAGE_TIMING}"]'));
var types=(window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes)||[];
function settled(img){var at=images.indexOf(img);if(at>=0)images.splice(at,1);if(images.length===0)soon()}
images.slice().forEach(function(img){if(img.complete&&!img.naturalWidth)settled(img);else img.addEventListener("error",function(){settled(img)})});
if(images.length>0&&types.indexOf("element")>=0){
new PerformanceObserver(function(list){list.getEntries().forEach(function(entry){if(entry.url&&entry.url.indexOf("data:")!==0)settled(entry.element)})}).observe({type:"element",buffered:true})}
else if(images.length===0&&types.indexOf("largest-contentful-paint")>=0){
new PerformanceObserver(soon).observe({type:"largest-contentful-paint",buffered:true})}
else{
var left=images.length;
function frame(){requestAnimationFrame(function(){requestAnimationFrame(soon)})}
if(left===0)frame();
images.forEach(function(img){function loaded(){if(--left===0)frame()}if(img.complete)loaded();else{img.addEventListener("load",loaded);img.addEventListener("error",loaded)}})}
})();`.replace(/\n/g, '');

interface Rewrite {
  from: Buffer;
  to: Buffer;
  /** Only the first occurrence is rewritten. */
  once: boolean;
}

// React hoists React Router's preload links into the head.
const PRELOAD_LINKS: Rewrite = {
  from: Buffer.from('<link rel="modulepreload"'),
  to: Buffer.from(`<link rel="${WAITING_PRELOAD_REL}"`),
  once: false,
};
// The context script comes after the page's content and before the module script.
const CONTEXT_SCRIPT: Rewrite = {
  from: Buffer.from('>window.__reactRouterContext = '),
  to: Buffer.from(`>${START_SCRIPTS_AFTER_PAINT}window.__reactRouterContext = `),
  once: true,
};
const MODULE_SCRIPT: Rewrite = {
  from: Buffer.from(' type="module" async="">'),
  to: Buffer.from(` type="${WAITING_MODULE_TYPE}" async="">`),
  once: true,
};

/**
 * The page's scripts start after its first paint (docs/decisions/022-scripts-after-first-paint.md):
 * React Router's module preloads and module script are written inert, and a few lines at the
 * start of its context script make them what React Router wrote once the largest image has
 * painted. Every page paints from its document alone (inline stylesheet, inline first image), so
 * the scripts only hydrate it; fetched before the paint they compete with the largest image and
 * count as render-blocking in Lighthouse's simulation.
 *
 * Works on bytes (the ASCII markers cannot occur inside a multi-byte character, and React
 * escapes quotes and angle brackets in text, JSON in a script escapes quotes); a marker split
 * across two chunks is carried over to the next one. Once the module script and the context
 * script are rewritten (no preload link follows the module script), the rest passes through.
 */
export function scriptsAfterFirstPaint(): Transform {
  let carry = Buffer.alloc(0);
  const active = [PRELOAD_LINKS, CONTEXT_SCRIPT];
  return new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (active.length === 0) return done(null, bytes);
      const text = carry.length > 0 ? Buffer.concat([carry, bytes]) : bytes;
      const rewritten = rewrite(text, active);
      // Keep back a tail that could be the start of a marker the next chunk completes.
      const keep =
        active.length === 0 ? 0 : Math.max(...active.map((r) => partialPrefixLength(text, r.from)));
      const cut = Math.max(rewritten.consumed, text.length - keep);
      carry = Buffer.from(text.subarray(cut));
      done(null, Buffer.concat([...rewritten.parts, text.subarray(rewritten.consumed, cut)]));
    },
    flush(done: TransformCallback) {
      done(null, carry);
    },
  });
}

/**
 * Rewrites the markers of `active` in `html`, earliest first: a one-time rewrite leaves `active`
 * once done, the module script's joins it once the context script's is done, and the preload
 * links' leaves it once the module script's is done. Answers the output up to
 * the end of the last rewrite, and how many bytes of `html` it covers.
 */
function rewrite(html: Buffer, active: Rewrite[]): { parts: Buffer[]; consumed: number } {
  const parts: Buffer[] = [];
  let from = 0;
  for (;;) {
    let next: Rewrite | undefined;
    let at = -1;
    for (const candidate of active) {
      const found = html.indexOf(candidate.from, from);
      if (found >= 0 && (at < 0 || found < at)) {
        at = found;
        next = candidate;
      }
    }
    if (!next) return { parts, consumed: from };
    parts.push(html.subarray(from, at), next.to);
    from = at + next.from.length;
    if (next.once) active.splice(active.indexOf(next), 1);
    // The module script is made inert only once what restores it is in the page: should React
    // Router write its context script differently, the page loads its scripts at once.
    if (next === CONTEXT_SCRIPT) active.push(MODULE_SCRIPT);
    // No preload link follows the module script.
    if (next === MODULE_SCRIPT && active.includes(PRELOAD_LINKS)) {
      active.splice(active.indexOf(PRELOAD_LINKS), 1);
    }
  }
}

/** The length of the longest end of `bytes` that is a proper start of `marker`. */
function partialPrefixLength(bytes: Buffer, marker: Buffer): number {
  for (let length = Math.min(marker.length - 1, bytes.length); length > 0; length--) {
    if (bytes.subarray(bytes.length - length).equals(marker.subarray(0, length))) return length;
  }
  return 0;
}
