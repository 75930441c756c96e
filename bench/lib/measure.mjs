// Api throughput beside its ceiling: every run loads the Fastify hello-world, then the api
// route, so each ratio pairs two loads measured seconds apart on the same machine.
import { load, warm } from './load.mjs';
import { ratios } from './stats.mjs';

export const HELLO = 'Fastify hello';

/** Throws when a load had non-2xx answers or errors: every figure must come from successes. */
export function assertClean(name, result, output) {
  if (result.non2xx === 0 && result.errors === 0) return;
  const tail = output ? `\napi output (tail):\n${output().slice(-2_000)}` : '';
  throw new Error(
    `${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors/timeouts; figures would be wrong${tail}`,
  );
}

/**
 * Runs `ctx.runs` pairs (hello, then `scenario`) after one warm-up of each. A scenario:
 *   { name, url, requests?, before?(run) → options, after?(run, result) }
 * `before` may prepare data and answer extra load options (e.g. `amount`); `after` may check
 * what was stored. Answers { hello: results[], target: results[], ratios: number[] }.
 */
export async function measurePairs(ctx, hello, scenario, { seconds, output } = {}) {
  // `before` first: the request list may use what it prepared.
  const options = async (run) => {
    const extra = (await scenario.before?.(run)) ?? {};
    return {
      durationSeconds: seconds,
      ...(scenario.requests ? { requests: scenario.requests() } : {}),
      ...extra,
    };
  };
  await warm(hello.url);
  const warmOptions = await options('warm');
  const warmResult = await load(scenario.url, { ...warmOptions, durationSeconds: 2 });
  assertClean(`${scenario.name} (warm-up)`, warmResult, output);
  await scenario.after?.('warm', warmResult);

  const helloResults = [];
  const targetResults = [];
  for (let run = 0; run < ctx.runs; run++) {
    const h = await load(`${hello.url}/`, { durationSeconds: seconds });
    assertClean(HELLO, h);
    const runOptions = await options(run);
    const t = await load(scenario.url, runOptions);
    assertClean(scenario.name, t, output);
    await scenario.after?.(run, t);
    helloResults.push(h);
    targetResults.push(t);
    ctx.log(
      `${scenario.name} run ${run + 1}: ${t.rps.toFixed(0)} req/s (hello ${h.rps.toFixed(0)}), p50 ${t.p50} ms, p99 ${t.p99} ms`,
    );
  }
  return {
    hello: helloResults,
    target: targetResults,
    ratios: ratios(
      targetResults.map((r) => r.rps),
      helloResults.map((r) => r.rps),
    ),
  };
}

/** The three rows of a measured route: req/s (with its ratio to hello), p50 and p99. */
export function routeRows(name, measured, budget) {
  return [
    {
      name: `${name} throughput`,
      unit: 'req/s',
      samples: measured.target.map((r) => r.rps),
      ratio: { of: HELLO, samples: measured.ratios },
      ...(budget ? { budget } : {}),
    },
    { name: `${name} p50`, unit: 'ms', samples: measured.target.map((r) => r.p50) },
    { name: `${name} p99`, unit: 'ms', samples: measured.target.map((r) => r.p99) },
  ];
}
