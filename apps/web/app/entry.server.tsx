import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { loadRuntimeProfiles } from './lib/runtime-config.server';
import { InlinePreviewContext } from './components/inline-preview';
import { createInlinePreviewTaker } from './lib/inline-preview.server';
import { APP_CSS } from './styles/app-css.server';
import { DocumentCssContext } from './styles/document-styles';
import { CspNonceContext } from './lib/csp-nonce';
import { coalescedChunks } from './lib/coalesced-chunks.server';
import { scriptsAfterFirstPaint } from './lib/scripts-after-paint.server';
import type { DeploymentProfiles } from './startup/deployment-profiles';

export const streamTimeout = 5_000;

/**
 * Called by the web server before it listens: an invalid deployment profile stops start-up
 * with a message naming the profile and the field. Answers the validated profiles,
 * which the server hands out one by one (`/profiles/<key>.json`).
 */
export function checkDeploymentProfiles(): DeploymentProfiles {
  return loadRuntimeProfiles();
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext?: AppLoadContext,
): Promise<Response> {
  // The response's CSP nonce (server/security.ts): every inline script React and React Router
  // write carries it; the page's Content-Security-Policy allows no other inline script.
  const nonce = loadContext?.cspNonce;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    // Bots and SPA-mode builds wait for all content; browsers get the shell as soon as it is ready.
    const readyOption =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';

    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext.Provider value={nonce}>
        <DocumentCssContext.Provider value={APP_CSS}>
          <InlinePreviewContext.Provider value={createInlinePreviewTaker()}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </InlinePreviewContext.Provider>
        </DocumentCssContext.Provider>
      </CspNonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          // The scripts hydrate a page that paints without them (scripts-after-paint.server.ts);
          // React's pieces go out one chunk per turn (coalesced-chunks.server.ts).
          const body = scriptsAfterFirstPaint();
          const html = body.pipe(coalescedChunks());
          const stream = createReadableStreamFromReadable(html);
          responseHeaders.set('Content-Type', 'text/html');
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // A page with a failed part is never kept by the page cache (server/page-cache.ts).
          if (loadContext?.pageCache) loadContext.pageCache.keep = false;
          // Errors after the shell are logged here; before it, they reach the error boundary.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}
