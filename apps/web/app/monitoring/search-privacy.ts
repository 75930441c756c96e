import type { RumEvent } from '@datadog/browser-rum';

/**
 * What a shopper types into the search box may be anything, personal data included, so
 * monitoring keeps a search's length and result count (the `search` actions, routes/search.tsx)
 * but not its text: the `q` of /search pages and of the suggestion calls is replaced in the URLs
 * the monitoring SDK sends (view, referrer, resource, failed request). Session replay masks
 * typed text already (`defaultPrivacyLevel: 'mask-user-input'`).
 */
export const REDACTED_QUERY = 'redacted';

const SEARCH_PATH = /\/search(\/suggestions)?$/;

/** `url` with the value of `q` replaced when it is a search page or a suggestion call. */
export function redactSearchQuery(url: string): string {
  if (!url.includes('q=')) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!SEARCH_PATH.test(parsed.pathname) || !parsed.searchParams.has('q')) return url;
  parsed.searchParams.set('q', REDACTED_QUERY);
  return parsed.href;
}

/** Redacts the search text in the URLs of one event (the SDK's `beforeSend` may change these). */
export function redactSearchEvent(event: RumEvent): void {
  event.view.url = redactSearchQuery(event.view.url);
  if (event.view.referrer) event.view.referrer = redactSearchQuery(event.view.referrer);
  if (event.type === 'resource') event.resource.url = redactSearchQuery(event.resource.url);
  if (event.type === 'error' && event.error.resource) {
    event.error.resource.url = redactSearchQuery(event.error.resource.url);
  }
}
