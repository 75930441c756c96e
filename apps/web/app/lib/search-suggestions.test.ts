import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createSuggestionFetcher,
  fetchSuggestions,
  nextActive,
  SUGGEST_DELAY_MS,
  suggestionOptions,
} from './search-suggestions';
import { createApiClient } from './api-client';

/** A load whose calls the test answers (or sees aborted) one by one. */
function controlledLoad() {
  const calls: {
    text: string;
    signal: AbortSignal;
    answer: (value: string) => void;
    fail: () => void;
  }[] = [];
  const load = (text: string, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ text, signal, answer: resolve, fail: () => reject(new Error('down')) });
    });
  return { calls, load };
}

describe('suggestions while typing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = () => {
    const { calls, load } = controlledLoad();
    const answers: [string, string | null][] = [];
    const fetcher = createSuggestionFetcher({
      load,
      onAnswer: (text, answer) => answers.push([text, answer]),
    });
    return { calls, answers, fetcher };
  };

  it('asks once the typing pauses, for the last text only', async () => {
    const { calls, answers, fetcher } = setup();
    fetcher.update('so');
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS - 1);
    fetcher.update('sof');
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS - 1);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((call) => call.text)).toEqual(['sof']);
    calls[0]!.answer('sofa');
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toEqual([['sof', 'sofa']]);
  });

  it('aborts the call in flight on the next keystroke and drops its answer', async () => {
    const { calls, answers, fetcher } = setup();
    fetcher.update('ta');
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS);
    expect(calls[0]!.signal.aborted).toBe(false);
    fetcher.update('tab');
    expect(calls[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS);
    // The older call answers late: its answer must not replace the newer one.
    calls[1]!.answer('table');
    calls[0]!.answer('tall lamp');
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toEqual([['tab', 'table']]);
  });

  it('answers null at once for fewer than two characters, and cancels what was pending', async () => {
    const { calls, answers, fetcher } = setup();
    fetcher.update('la');
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS);
    fetcher.update(' l ');
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(answers).toEqual([['l', null]]);
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS * 2);
    expect(calls).toHaveLength(1);
  });

  it('asks the same text once, and answers null when the call fails', async () => {
    const { calls, answers, fetcher } = setup();
    fetcher.update('oak');
    fetcher.update('oak ');
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS);
    expect(calls).toHaveLength(1);
    calls[0]!.fail();
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toEqual([['oak', null]]);
  });

  it('cancel() drops the pending call and the one in flight', async () => {
    const { calls, answers, fetcher } = setup();
    fetcher.update('desk');
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS);
    fetcher.cancel();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.answer('desk lamp');
    fetcher.update('chair');
    fetcher.cancel();
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS * 2);
    expect(calls).toHaveLength(1);
    expect(answers).toEqual([]);
    // After a cancel, the same text is asked again.
    fetcher.update('desk');
    await vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS);
    expect(calls).toHaveLength(2);
  });
});

describe('the suggestion list', () => {
  it('lists the term completions as searches, then the products as their pages', () => {
    expect(
      suggestionOptions({
        query: 'dining ta',
        terms: ['dining table', 'dining tall'],
        products: [{ id: 1, name: 'Fjord Oak Dining Table', department: 'tables' }],
      }),
    ).toEqual([
      { kind: 'term', label: 'dining table', href: '/search?q=dining%20table' },
      { kind: 'term', label: 'dining tall', href: '/search?q=dining%20tall' },
      { kind: 'product', label: 'Fjord Oak Dining Table', href: '/department/tables/product/1' },
    ]);
  });

  it('asks the api through the browser client with the signal, unreported', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const client = createApiClient({
      baseUrl: 'http://shop.test/api',
      fetch: ((url: string, init: RequestInit) => {
        seen.push({ url, init });
        return Promise.resolve(
          new Response(JSON.stringify({ query: 'so & so', terms: [], products: [] })),
        );
      }) as unknown as typeof fetch,
    });
    const controller = new AbortController();
    await expect(fetchSuggestions(client, 'so & so', controller.signal)).resolves.toMatchObject({
      terms: [],
    });
    expect(seen[0]?.url).toBe('http://shop.test/api/search/suggestions?q=so%20%26%20so');
    controller.abort();
    expect(seen[0]?.init.signal?.aborted).toBe(true);
  });

  it.each([
    [-1, 3, 'ArrowDown', 0],
    [0, 3, 'ArrowDown', 1],
    [2, 3, 'ArrowDown', 0],
    [-1, 3, 'ArrowUp', 2],
    [0, 3, 'ArrowUp', 2],
    [2, 3, 'ArrowUp', 1],
    [-1, 0, 'ArrowDown', -1],
  ] as const)('from %i of %i, %s moves to %i', (active, count, key, expected) => {
    expect(nextActive(active, count, key)).toBe(expected);
  });
});
