// How the api's cost grows with its data: the product page and the flag precompute at 1×, 10×
// and 100× the shop's catalog and flag count, and the RUM intake's write rate with 1M events
// already stored. Each scale is its own api (apps/api/dist/server.js over a fresh DATA_DIR):
// the catalog is copied into its database before it starts (bench/lib/api.mjs
// prepareDatabase), the flags are the shop's UFC flags copied under new keys into a temp folder
// served through FLAGS_PATH, as an operator would point the api at another flag set.
// BENCH_SCALE_SECONDS (default 3) is the length of one load.
import fs from 'node:fs';
import { summarize } from '../lib/stats.mjs';
import path from 'node:path';
import {
  countStoredRumEvents,
  intakeRequests,
  precomputeRequests,
  productRequests,
  RUM_BATCH_EVENTS,
} from '../lib/api-requests.mjs';
import {
  API_PORT,
  ensureApiBuilt,
  openSqlite,
  prepareDatabase,
  startApi,
  startHello,
  tempDir,
} from '../lib/api.mjs';
import { HELLO, measurePairs } from '../lib/measure.mjs';

const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 2);
const SCALES = [1, 10, 100];
const STORED_EVENTS = 1_000_000;
/** The MD5 of a subject and a split per flag at 100×, from the profile the precompute note cites. */
const MD5_NANOS_PER_FLAG = 350;

/** The shop's flags (apps/api/flags/*.json) `times` over: copies get new keys and salts. */
function writeFlags(root, dir, times) {
  const source = path.join(root, 'apps/api/flags');
  const flags = {};
  for (const file of fs
    .readdirSync(source)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const document = JSON.parse(fs.readFileSync(path.join(source, file), 'utf8'));
    for (const flag of Object.values(document.flags)) {
      for (let copy = 0; copy < times; copy++) {
        const suffix = copy === 0 ? '' : `_x${copy}`;
        const copied = structuredClone(flag);
        copied.key = `${flag.key}${suffix}`;
        for (const allocation of copied.allocations) {
          for (const split of allocation.splits) {
            for (const shard of split.shards) shard.salt = `${shard.salt}${suffix}`;
          }
        }
        flags[copied.key] = copied;
      }
    }
  }
  fs.writeFileSync(
    path.join(dir, 'flags.json'),
    JSON.stringify({ format: 'SERVER', environment: { name: 'demo' }, flags }),
  );
  return Object.keys(flags).length;
}

/**
 * STORED_EVENTS RUM events written straight into rum_events with one INSERT … SELECT over a
 * counter (the SDK's shape: 50 events per view, views of one session), before the api starts.
 */
function storeOldEvents(root, dataDir) {
  const sqlite = openSqlite(root, dataDir);
  const payload = JSON.stringify({
    type: 'action',
    date: 1_767_225_600_000,
    application: { id: '00000000-0000-0000-0000-000000000017' },
    session: { id: 'old', type: 'user', has_replay: false },
    view: { id: 'old', url: 'http://localhost:3000/department/tables', referrer: '' },
    service: 'showroom-web',
    source: 'browser',
    usr: { id: 'a1b2c3d4', name: 'ada.lovelace', email: 'ada@example.com', team: 'engineering' },
    action: { id: 'old', type: 'click', target: { name: 'add to cart' } },
    feature_flags: { show_loaf: true, recommendations_strategy: 'bestsellers' },
    _dd: { format_version: 2, drift: 0 },
  });
  sqlite
    .prepare(
      `with recursive n(x) as (select 1 union all select x + 1 from n where x < ?)
       insert into rum_events (event_key, session_id, view_id, event_type, date, name, usr_id,
         feature_flags, payload, received_at)
       select 'action:old-' || x, 'old-session-' || (x / 1000), 'old-view-' || (x / 50),
         case x % 4 when 0 then 'action' when 1 then 'resource' when 2 then 'error' else 'vital' end,
         1767225600000 + x, 'add to cart', 'a1b2c3d4', '{"show_loaf":true}', ?, 1767225600000 + x
       from n`,
    )
    .run(STORED_EVENTS, payload);
  const stored = countStoredRumEvents(sqlite);
  sqlite.close();
  return stored;
}

export default {
  title: 'Scale',
  async run(ctx) {
    ensureApiBuilt(ctx.root, ctx.log);
    const hello = await startHello(ctx.root);
    const rows = [];
    const notes = [];
    const byScale = {};
    const withApi = async (label, { times, oldEvents = false }, body) => {
      const dataDir = tempDir(`scale-${label}`);
      const flagsDir = tempDir(`scale-flags-${label}`);
      try {
        const { ids } = await prepareDatabase(ctx.root, dataDir, { times, stock: 1_000 });
        const flagCount = writeFlags(ctx.root, flagsDir, times);
        if (oldEvents) {
          const started = Date.now();
          const stored = storeOldEvents(ctx.root, dataDir);
          ctx.log(
            `${stored.toLocaleString('en-US')} events stored in ${((Date.now() - started) / 1000).toFixed(1)} s`,
          );
        }
        const api = await startApi(ctx.root, {
          port: API_PORT + 1,
          dataDir,
          env: { FLAGS_PATH: flagsDir },
        });
        try {
          return await body({ api, ids, flagCount, dataDir });
        } finally {
          await api.stop();
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(flagsDir, { recursive: true, force: true });
      }
    };

    const measureIntake = async (api, dataDir, label) => {
      const sqlite = openSqlite(ctx.root, dataDir, { readonly: true });
      try {
        let before = 0;
        let rate = 100;
        const stored = [];
        const measured = await measurePairs(
          ctx,
          hello,
          {
            name: `intake, ${label}`,
            url: api.url,
            requests: () => intakeRequests(`${label}-${Date.now()}`),
            before: (run) => {
              before = countStoredRumEvents(sqlite);
              return { amount: run === 'warm' ? 200 : Math.max(200, Math.round(rate * SECONDS)) };
            },
            after: (run, result) => {
              const added = countStoredRumEvents(sqlite) - before;
              if (added !== result.ok * RUM_BATCH_EVENTS) {
                throw new Error(
                  `intake, ${label}: ${added} events stored for ${result.ok} batches`,
                );
              }
              if (run === 'warm') rate = result.rps;
              else stored.push(added / result.seconds);
            },
          },
          { seconds: SECONDS, output: api.output },
        );
        return { stored, measured };
      } finally {
        sqlite.close();
      }
    };

    let emptyIntake;
    for (const times of SCALES) {
      await withApi(`${times}x`, { times }, async ({ api, ids, flagCount, dataDir }) => {
        ctx.log(`${times}×: ${ids.length.toLocaleString('en-US')} products, ${flagCount} flags`);
        const product = await measurePairs(
          ctx,
          hello,
          {
            name: `GET /products/{id} ${times}×`,
            url: api.url,
            requests: () => productRequests(ids),
          },
          { seconds: SECONDS, output: api.output },
        );
        const precompute = await measurePairs(
          ctx,
          hello,
          {
            name: `flag precompute ${times}×`,
            url: api.url,
            requests: () => precomputeRequests(Infinity),
          },
          { seconds: SECONDS, output: api.output },
        );
        byScale[times] = { product, precompute, products: ids.length, flags: flagCount };
        if (times === 1) emptyIntake = await measureIntake(api, dataDir, 'empty table');
      });
    }

    for (const [key, title] of [
      ['product', 'GET /products/{id}'],
      ['precompute', 'flag precompute'],
    ]) {
      for (const times of SCALES) {
        const { products, flags } = byScale[times];
        const measured = byScale[times][key];
        const size =
          key === 'product' ? `${products.toLocaleString('en-US')} products` : `${flags} flags`;
        rows.push(
          {
            name: `${title} ${times}× (${size}) throughput`,
            unit: 'req/s',
            samples: measured.target.map((r) => r.rps),
            ratio: { of: HELLO, samples: measured.ratios },
          },
          {
            name: `${title} ${times}× p99`,
            unit: 'ms',
            samples: measured.target.map((r) => r.p99),
          },
        );
      }
      const p99 = (times) => byScale[times][key].target.map((r) => r.p99);
      rows.push({
        name: `${title} p99, 100× ÷ 1×`,
        unit: 'ratio',
        samples: p99(100).map((value, i) => value / p99(1)[i]),
        budget: { on: 'value', op: '<=', value: 2, text: '≤ 2 (100× p99 < 2 × 1× p99)' },
      });
    }

    const full = await withApi('events', { times: 1, oldEvents: true }, ({ api, dataDir }) =>
      measureIntake(api, dataDir, `${(STORED_EVENTS / 1e6).toFixed(0)}M events stored`),
    );
    for (const [label, intake] of [
      ['empty table', emptyIntake],
      [`${(STORED_EVENTS / 1e6).toFixed(0)}M events stored`, full],
    ]) {
      rows.push({
        name: `intake events stored, ${label}`,
        unit: 'events/s',
        samples: intake.stored,
        ratio: {
          of: HELLO,
          samples: intake.stored.map((rate, i) => rate / intake.measured.hello[i].rps),
        },
      });
    }
    rows.push({
      name: 'intake events/s, 1M stored ÷ empty',
      unit: 'ratio',
      samples: full.stored.map((rate, i) => rate / emptyIntake.stored[i]),
    });

    await hello.stop();
    const precomputeGrowth = summarize(
      rows.find((row) => row.name === 'flag precompute p99, 100× ÷ 1×').samples,
    );
    if (precomputeGrowth.median > 2) {
      const oneX = summarize(byScale[1].precompute.target.map((r) => r.rps)).median;
      const requestMicros = 1e6 / oneX;
      const extraFlags = byScale[100].flags - byScale[1].flags;
      const hundredX = summarize(byScale[100].precompute.target.map((r) => r.rps)).median;
      const hundredXMicros = 1e6 / hundredX;
      // What one more flag costs a request here: the 100× request's time over the 1×'s, per flag.
      const flagNanos = ((hundredXMicros - requestMicros) / extraFlags) * 1000;
      const budgetNanos = (requestMicros / extraFlags) * 1000;
      notes.push(
        `Precompute budget missed, and it cannot be met while the answer carries every flag: the provider’s request names no flags (its attributes are env, source and subject only; decision 002), so the answer holds an assignment for each of the ${byScale[100].flags} flags at 100×, each one evaluation (flagging-core, as in the Flags part) and one serialized entry: about ${(flagNanos / 1000).toFixed(1)} µs of the api per flag in this run (a 100× request about ${(hundredXMicros / 1000).toFixed(1)} ms, 1 / ${hundredX.toFixed(0)} req/s). Profiled at 100× (a CPU profile of the api under this load, December 7, 2026; about 12.5 ms of the api per request under the profiler): flagging-core’s evaluateForSubject 62 % (rule matching 8 %, the split’s sharding 9 % of which the MD5 4 %, the rest its own work per call: a Date per allocation window, the arguments of debug-log calls built while debug is off), the api’s assignment entry around it 15 % (building, freezing, the exposure-log fields), serializing the answer 8 %, garbage collection 7 %, the socket 2 %. The MD5 of a subject and a split, which no evaluator of a split can skip, is by itself about ${MD5_NANOS_PER_FLAG} ns per flag on average there. A 1× request takes about ${requestMicros.toFixed(0)} µs of the api (1 / ${oneX.toFixed(0)} req/s); for p99 to grow less than 2×, the ${extraFlags} more flags of a 100× request would have to cost less than that together, about ${budgetNanos.toFixed(0)} ns each, some ${Math.round(flagNanos / budgetNanos)} times less than a flag costs today${budgetNanos < MD5_NANOS_PER_FLAG ? ', and less than its MD5 alone' : ''}. The parsed flags are already cached per configuration version, and answers kept per shopper (the API part) are still serialized and written whole. What would meet it: an answer that does not grow with the flag count, i.e. a provider that asks for the flags a page uses (the api also serves OFREP, whose single-flag evaluation does), or fewer flags per environment.`,
      );
    }
    notes.push(
      `Each scale is its own api over its own SQLite file: the catalog copied ${SCALES.join('×, ')}× (copies keep their department, get new ids) and the shop's flags copied as many times under new keys and split salts (FLAGS_PATH). ${SECONDS} s loads at 50 connections; every precompute request is for a shopper not asked before, so each evaluates every flag (the growth of the evaluation, not of the answers kept per shopper).`,
      `The budget rows divide each run's 100× p99 by the same run's 1× p99. The intake rows count events stored in the database; the 1M events were written before the api started, in one INSERT … SELECT.`,
    );
    return { rows, notes };
  },
};
