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
  const result = await autocannon({
    url,
    connections,
    duration: durationSeconds,
    ...options,
  });
  const ok = result['2xx'];
  const seconds = result.duration || durationSeconds;
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
