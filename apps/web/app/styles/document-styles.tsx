import { createContext, useContext, useState } from 'react';

/**
 * The shop's stylesheet travels inside the document (docs/architecture.md, "Performance"): a
 * first visit paints as soon as the HTML arrives instead of waiting for a render-blocking
 * stylesheet request. entry.server.tsx provides the text; in the browser the element the server
 * wrote is read back, so hydration renders the same content and the CSS is not in any script.
 */
export const DocumentCssContext = createContext<string | null>(null);

const STYLE_ID = 'showroom-css';

export function DocumentStyles() {
  const fromServer = useContext(DocumentCssContext);
  const [css] = useState(
    () =>
      fromServer ??
      (typeof document === 'undefined'
        ? ''
        : (document.getElementById(STYLE_ID)?.textContent ?? '')),
  );
  return <style id={STYLE_ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
