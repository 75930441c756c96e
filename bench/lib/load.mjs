// HTTP load with autocannon: requests/s and latency percentiles at a fixed connection count.
import autocannon from 'autocannon';

export const CONNECTIONS = 50;

/**
 * Runs one load of `durationSeconds` against `url` and answers requests/s (2xx only),
 * p50/p99 latency in ms, the count of non-2xx answers and errors, and the load's length in s. `requests` (autocannon's
 * request list, with setupRequest/onResponse hooks) drives routes that need a body or a cookie.
 */
export async function load(
  url,
  { durationSeconds = 5, connections = CONNECTIONS, ...options } = {},
) {
  const started = performance.now();
  let lastAnswer = started;
  const run = autocannon({
    url,
    connections,
    duration: durationSeconds,
    ...options,
  });
  run.on('response', () => {
    lastAnswer = performance.now();
  });
  const result = await run;
  // Elapsed time from the start to the last answer: autocannon ends a load only on its
  // once-a-second sample tick, so with `amount` (done when that many requests are answered) its
  // end, and its own duration field, can come most of a second after the work did.
  const seconds = (lastAnswer - started) / 1000;
  const ok = result['2xx'];
  return {
    rps: ok / seconds,
    ok,
    seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** A short unrecorded load so the server's code is compiled and caches are warm. */
export async function warm(url, options = {}) {
  await load(url, { ...options, durationSeconds: 2 });
}
