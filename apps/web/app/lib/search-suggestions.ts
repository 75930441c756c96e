import { productQueryString } from '@showroom/contracts/product-query';
import type { SearchSuggestions } from '@showroom/contracts/search';
import type { ApiClient } from './api-client';
import { productPath } from '@showroom/contracts/product-paths';

/**
 * Suggestions while typing in the header's search box (components/search-suggest.tsx, loaded
 * on the box's first focus): `GET /search/suggestions`, debounced, each keystroke cancelling
 * the call before it.
 */

/** Fewer characters than this show no suggestions (the api matches two-letter prefixes up). */
export const SUGGEST_MIN_LENGTH = 2;
/** Quiet time after a keystroke before the api is asked. */
export const SUGGEST_DELAY_MS = 150;

/** One entry of the suggestion list: a search to run, or a product to open. */
export interface SuggestionOption {
  kind: 'term' | 'product';
  label: string;
  href: string;
}

export function suggestionOptions(answer: SearchSuggestions): SuggestionOption[] {
  return [
    ...answer.terms.map((term) => ({
      kind: 'term' as const,
      label: term,
      href: `/search${productQueryString({ q: term })}`,
    })),
    ...answer.products.map((product) => ({
      kind: 'product' as const,
      label: product.name,
      href: productPath(product),
    })),
  ];
}

/** The suggestions call, through the one browser client (decision 006); failures are not reported. */
export function fetchSuggestions(
  client: ApiClient,
  text: string,
  signal: AbortSignal,
): Promise<SearchSuggestions> {
  return client.request<SearchSuggestions>(
    'GET',
    `/search/suggestions?q=${encodeURIComponent(text)}`,
    { signal, report: false },
  );
}

export interface SuggestionFetcher {
  /** The box's text changed. */
  update(text: string): void;
  /** Drops the pending call and the one in flight (the box closed or went away). */
  cancel(): void;
}

export interface SuggestionFetcherOptions<T> {
  load: (text: string, signal: AbortSignal) => Promise<T>;
  /**
   * The answer for `text`, the trimmed text it was asked for; null when there is nothing to
   * show (too short, or the call failed). Never called for a call that was cancelled.
   */
  onAnswer: (text: string, answer: T | null) => void;
  delayMs?: number;
  minLength?: number;
}

/**
 * Debounce and cancel: a change waits `delayMs` of quiet before `load` runs; every change
 * aborts the call in flight (its AbortSignal) and drops its answer, so an older, slower answer
 * never replaces a newer one. The same text twice in a row is asked once.
 */
export function createSuggestionFetcher<T>({
  load,
  onAnswer,
  delayMs = SUGGEST_DELAY_MS,
  minLength = SUGGEST_MIN_LENGTH,
}: SuggestionFetcherOptions<T>): SuggestionFetcher {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let current: string | undefined;

  const cancel = () => {
    clearTimeout(timer);
    inFlight?.abort();
    inFlight = undefined;
    current = undefined;
  };

  const ask = (text: string) => {
    const controller = new AbortController();
    inFlight = controller;
    load(text, controller.signal).then(
      (answer) => {
        if (!controller.signal.aborted) onAnswer(text, answer);
      },
      () => {
        if (!controller.signal.aborted) onAnswer(text, null);
      },
    );
  };

  return {
    update(raw) {
      const text = raw.trim();
      if (text === current) return;
      cancel();
      if (text.length < minLength) {
        onAnswer(text, null);
        return;
      }
      current = text;
      timer = setTimeout(() => ask(text), delayMs);
    },
    cancel,
  };
}

/** The option an arrow key moves to, round the list; -1 (none) when there is none. */
export function nextActive(active: number, count: number, key: 'ArrowDown' | 'ArrowUp'): number {
  if (count === 0) return -1;
  if (key === 'ArrowDown') return active + 1 >= count ? 0 : active + 1;
  return active <= 0 ? count - 1 : active - 1;
}
