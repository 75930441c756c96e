// Flag evaluations per second, in process (no HTTP): the api's precompute path over the shop's
// flags (apps/api/flags, as the api serves them), and one flag — show_loaf: a ONE_OF rule on
// the browser, then a 25 % split — evaluated by the api's module, by @datadog/flagging-core
// 3.2.0 called directly, and by @openfeature/flagd-core on the same rule and split written in
// flagd's format. Every run measures each of them for the same subjects, one after the other.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureApiBuilt, importApiDist } from '../lib/api.mjs';

const SECONDS = Number(process.env.BENCH_FLAGS_SECONDS ?? 1.5);
const SUBJECTS = 1000;
const FLAG = 'show_loaf';
const FLAGGING_CORE = '@datadog/flagging-core 3.2.0';

/** The bench's own devDependencies (Node 20: flagging-core's ESM build cannot load; CJS can). */
const benchRequire = createRequire(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../package.json'),
);

/** show_loaf in flagd's format: the same browser rule, then 25 % on by the targeting key. */
const FLAGD_CONFIGURATION = JSON.stringify({
  flags: {
    [FLAG]: {
      state: 'ENABLED',
      variants: { on: true, off: false },
      defaultVariant: 'off',
      targeting: {
        if: [
          { in: [{ var: 'browser' }, ['Chrome', 'Edge', 'Opera']] },
          {
            fractional: [
              ['on', 25],
              ['off', 75],
            ],
          },
          'off',
        ],
      },
    },
  },
});

/** Shoppers as the web app describes them to the flag service (contracts' buildFlagSubject). */
function subjects() {
  return Array.from({ length: SUBJECTS }, (_, i) => {
    const id = `shopper${String(i).padStart(4, '0')}`;
    return {
      targetingKey: id,
      wire: {
        targetingKey: id,
        browser: ['Chrome', 'Firefox', 'Safari', 'Edge'][i % 4],
        user_id: id,
        user_name: `bench.shopper.${i}`,
        user_email: `shopper${i}@example.com`,
        team: ['engineering', 'design', 'marketing', 'product', 'sales'][i % 5],
        useDiscount: JSON.stringify(i % 3 === 0),
        useNewCheckoutFlow: JSON.stringify(i % 2 === 0),
      },
    };
  });
}

/** Calls `evaluate(i)` for SECONDS; answers calls per second and how many answered truthy. */
function rate(evaluate) {
  let calls = 0;
  let truthy = 0;
  const end = performance.now() + SECONDS * 1000;
  let now = performance.now();
  while (now < end) {
    for (let i = 0; i < 200; i++) if (evaluate(calls++ % SUBJECTS)) truthy++;
    now = performance.now();
  }
  const seconds = (now - (end - SECONDS * 1000)) / 1000;
  return { perSecond: calls / seconds, share: truthy / calls };
}

export default {
  title: 'Flags',
  async run(ctx) {
    ensureApiBuilt(ctx.root, ctx.log);
    const { readFlagDefinitions, DEFAULT_FLAGS_PATH } = await importApiDist(
      ctx.root,
      'modules/flags/definitions.js',
    );
    const { precomputeAssignments } = await importApiDist(ctx.root, 'modules/flags/precompute.js');
    const { evaluateFlag } = await importApiDist(ctx.root, 'modules/flags/flagging-core.js');
    const { parseTargetingAttributes } = await importApiDist(
      ctx.root,
      'modules/flags/attributes.js',
    );
    const core = benchRequire('@datadog/flagging-core');
    const coreVersion = benchRequire('@datadog/flagging-core/package.json').version;
    const { FlagdCore } = await import('@openfeature/flagd-core');

    // As the api serves them: the definitions loaded at start-up, frozen and shared (repository.ts).
    const definitions = await readFlagDefinitions(DEFAULT_FLAGS_PATH);
    const served = definitions.flags.map((flag) => deepFreeze(structuredClone(flag)));
    const loaf = served.find((flag) => flag.key === FLAG);
    const people = subjects().map((subject) => ({
      ...subject,
      attributes: parseTargetingAttributes(subject.wire),
    }));
    const silent = { error() {}, warn() {}, info() {}, debug() {} };
    const now = Date.now();
    const flagd = new FlagdCore();
    flagd.setConfigurations(FLAGD_CONFIGURATION);

    const measures = {
      precompute: (i) => {
        const subject = people[i];
        const attributes = parseTargetingAttributes(subject.wire);
        const result = precomputeAssignments(
          served,
          { targetingKey: subject.targetingKey, attributes },
          silent,
          now,
        );
        return result.flags[FLAG]?.variationValue === true;
      },
      api: (i) =>
        evaluateFlag(
          loaf,
          { targetingKey: people[i].targetingKey, attributes: people[i].attributes },
          silent,
          now,
        )?.value === true,
      core: (i) =>
        core.evaluateForSubject(
          loaf,
          'boolean',
          people[i].targetingKey,
          { id: people[i].targetingKey, ...people[i].attributes },
          false,
          silent,
          now,
        ).value === true,
      flagd: (i) =>
        flagd.resolveBooleanEvaluation(
          FLAG,
          false,
          { targetingKey: people[i].targetingKey, ...people[i].attributes },
          silent,
        ).value === true,
    };

    // Warm-up: every evaluator compiled before anything is timed.
    for (const evaluate of Object.values(measures))
      for (let i = 0; i < 5_000; i++) evaluate(i % SUBJECTS);

    const samples = { precompute: [], api: [], core: [], flagd: [] };
    const shares = {};
    for (let run = 0; run < ctx.runs; run++) {
      for (const [name, evaluate] of Object.entries(measures)) {
        const result = rate(evaluate);
        // The precompute path evaluates every flag per call: count flags, not calls.
        samples[name].push(
          name === 'precompute' ? result.perSecond * served.length : result.perSecond,
        );
        shares[name] = result.share;
      }
      ctx.log(
        `run ${run + 1}: precompute ${samples.precompute[run].toFixed(0)} flags/s, api ${samples.api[run].toFixed(0)}, flagging-core ${samples.core[run].toFixed(0)}, flagd-core ${samples.flagd[run].toFixed(0)} evaluations/s`,
      );
    }
    const ofCore = (name) => ({
      of: FLAGGING_CORE,
      samples: samples[name].map((value, i) => value / samples.core[i]),
    });
    const percent = (share) => `${(share * 100).toFixed(1)} %`;
    return {
      rows: [
        {
          name: `api precompute path, per flag (${served.length} flags)`,
          unit: 'evals/s',
          samples: samples.precompute,
          ratio: ofCore('precompute'),
        },
        {
          name: `api evaluateFlag, ${FLAG}`,
          unit: 'evals/s',
          samples: samples.api,
          ratio: ofCore('api'),
        },
        {
          name: `flagging-core ${coreVersion} direct, ${FLAG}`,
          unit: 'evals/s',
          samples: samples.core,
        },
        {
          name: `flagd-core, ${FLAG} (same rule and split)`,
          unit: 'evals/s',
          samples: samples.flagd,
          ratio: ofCore('flagd'),
        },
      ],
      notes: [
        `In process, one evaluator after the other for ${SECONDS} s each per run, over ${SUBJECTS} shoppers described as the web app does (attributes typed back from the wire's strings once; the precompute row types them on every call, as the route does).`,
        `The precompute row counts flags evaluated per second: calls × ${served.length} (every flag of apps/api/flags, frozen and shared as the api serves them).`,
        `${FLAG} served "on" to ${percent(shares.api)} (api), ${percent(shares.core)} (flagging-core), ${percent(shares.flagd)} (flagd-core) of the shoppers: the rule is the same, the split hashes differ (flagging-core: MD5 of salt and key into 10,000 shards; flagd: MurmurHash3 of flag and key into 100 buckets).`,
      ],
    };
  },
};

function deepFreeze(value) {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
