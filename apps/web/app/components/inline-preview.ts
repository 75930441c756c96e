import { createContext } from 'react';

/**
 * The first above-the-fold image of a document arrives inside the HTML (docs/architecture.md,
 * "Performance"): an AVIF rendition as wide as a phone shows it, as the image's background, so
 * it paints with the document; the browser's own choice, loading in parallel, covers it. entry.server.tsx
 * provides the function (one preview per document, small files only); in the browser there is
 * none, so hydration keeps what the server wrote.
 */
export type TakeInlinePreview = (url: string) => string | null;

export const InlinePreviewContext = createContext<TakeInlinePreview | null>(null);
