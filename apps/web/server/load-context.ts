import type { DocumentBuild } from './build-info.js';
import type { RenderVerdict } from './page-cache.js';

/**
 * What every loader of a page load gets as `context` (React Router's AppLoadContext, declared
 * from this in app/root.tsx): a new object per request, which loaders also use to share what
 * they asked the api for on that page load (app/lib/departments.server.ts).
 */
// A type, not an interface: React Router's AppLoadContext has an index signature.
export type ShowroomLoadContext = {
  /** The build the document tells the browser about (root loader; ). */
  build: DocumentBuild;
  /**
   * The response's CSP nonce (server/security.ts): React Router's inline scripts carry it.
   * Absent under the dev server, which sends no CSP.
   */
  cspNonce?: string;
  /**
   * Present when the page cache renders the page (server/page-cache.ts): a loader or the
   * document whose page holds a failure sets `keep` to false, so it is not served to others.
   */
  pageCache?: RenderVerdict;
};
