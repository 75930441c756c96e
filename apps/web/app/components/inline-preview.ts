import { createContext } from 'react';

/**
 * The first above-the-fold image of a document arrives inside the HTML as a small real
 * rendition (docs/architecture.md, "Performance"): it shows as the image's background with the
 * first paint, and the full-size image, loading in parallel, covers it. entry.server.tsx
 * provides the function (one preview per document, small files only); in the browser there is
 * none, so hydration keeps what the server wrote.
 */
export type TakeInlinePreview = (url: string) => string | null;

export const InlinePreviewContext = createContext<TakeInlinePreview | null>(null);
