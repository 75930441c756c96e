import { createContext } from 'react';

/**
 * The response's Content-Security-Policy nonce, set by entry.server.tsx from the load context
 * (server/security.ts) for the document's inline scripts. Undefined in the browser: browsers
 * hide nonce values from the page once parsed, so hydration leaves the attribute alone.
 */
export const CspNonceContext = createContext<string | undefined>(undefined);
