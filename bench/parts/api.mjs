// Api throughput and latency at 50 connections, each route beside a Fastify hello-world
// measured in the same run: the product page, a department listing, adding to the cart,
// placing an order, the flag precompute for a shopper and the RUM intake (50-event batches,
// also as events stored per second, counted in the database).
//
// The api is the built one (apps/api/dist/server.js, production, SQLite in a fresh DATA_DIR)
// with the shop's catalog and ample stock, so carts and orders succeed throughout.
// BENCH_API_SECONDS (default 4) is the length of one load.
import fs from 'node:fs';
import {
  addToCartRequests,
  countStoredRumEvents,
  departmentRequests,
  fillCarts,
  intakeRequests,
  placeOrderRequests,
  precomputeRequests,
  productRequests,
  RUM_BATCH_EVENTS,
} from '../lib/api-requests.mjs';
import {
  ensureApiBuilt,
  openSqlite,
  prepareDatabase,
  startApi,
  startHello,
  tempDir,
} from '../lib/api.mjs';
import { HELLO, measurePairs, routeRows } from '../lib/measure.mjs';
import { judge } from '../lib/report.mjs';
import { summarize } from '../lib/stats.mjs';

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 3);
const STOCK = 10_000_000;

const INTAKE_STORED = 'intake events stored (SQLite) throughput';

/**
 * What profiling (node --cpu-prof of the api under these loads) found, for a missed budget; a
 * function when the note also reads the run's figures.
 */
const MISSED = {
  'GET /products/{id} throughput':
    'the answer comes from memory: the product and the flag configuration its three fault flags read are kept in the api until their tables are written (decision 021; 0.16 × hello before, when each answer ran four statements). In a profile of this load (node --cpu-prof, November 25, 2026) writev is about 47 % of the api’s busy time (the kernel’s loopback send, which the hello route pays as well), garbage collection about 6 %, and Fastify, CORS, security headers and serialization the rest. The PRAGMA data_version each request read (about 12 % then) is read once per turn of the event loop since November 29: its read lock made three of the five system calls of an answer (strace: 2 × fcntl and fstat beside the read and writev the hello route makes too), which costs most where system calls are slow (A/B on a machine whose hello ran 45–65k req/s: 12.8k → 18.7k req/s; 0.27 → 0.32 and 0.347 × hello in two bench runs). A profile after it (November 29): writev and idle time most of it, the fault flags about 10 %, request tracing 6 %, the security and NUL-character hooks 5 %. The ratio moves with the machine (0.41 at a hello of 77k req/s): compare the run’s ratios and its hello row.',
  'place an order throughput':
    'an order is one transaction of a dozen statements (idempotency claim, cart, stock, order, lines, payment, loyalty, cart clear, idempotency completion) on SQLite’s one connection, so orders run one at a time. Profiled under this load alone (November 25, 2026; about 1,260 orders/s, 790 µs of the api each, hello at 50k req/s): SQLite (better-sqlite3’s run and all) is 53 % of the api’s busy time, Kysely building and compiling the statements about 10 %, Fastify, the body, the cookie’s and the idempotency fingerprint’s HMACs and the socket the rest. Timed per statement: the COMMIT about 225 µs on average, a median of 74 µs (the WAL frames of the ~20 pages an order dirties, one system call each) plus a WAL checkpoint in 2 % of the commits (every 1,000 WAL pages, about 5.5 ms each: more than half of the commit time); the session read 40 µs (a request’s first statement), the cart 15 µs, each insert 8–15 µs. Tried on the same load and dropped: orders grouped into one transaction per 5 ms, a savepoint each (0.030–0.032 against 0.028: most of an order’s pages are index leaves at random places, its random ids and session id, so a group writes nearly as many pages as its orders one by one); a checkpoint every 10,000 pages (0.032, each then stalls the api about 27 ms); no checkpoints and synchronous = OFF together (0.025–0.031: the WAL grows and reads slow down); a 64 MB page cache or memory-mapped reads (no change). Timed again on November 28 (hello 73–85k req/s, 1,600–1,960 orders/s): 587 µs of the api’s CPU per order, of which the statements 93 µs, the COMMIT 205 µs on average (its checkpoints about 130 µs of it) and JavaScript about 290 µs (Kysely about 14 % of the busy time, Fastify’s hooks, the HMACs, the socket). What would meet 0.05 there, about 250–280 µs an order at that hello (about 400 µs at 50k): checkpoints off the request path, far fewer rows and indexes per order (the order, its lines, its payment and the idempotency answer in one row: about ten B-trees fewer, which halves the commit), or several api processes on PostgreSQL (the scale-out path), where orders do not wait for each other (not measured here). Done December 7: every statement of an order is compiled once (db/prepared.ts; Kysely had built and compiled about a dozen per order). A/B on one machine, 5 interleaved runs each, whose hello answered 12–25k req/s: 797 → 1,065 orders/s median (766–920 → 936–1,177), ratio 0.042 → 0.061; that machine’s slow loopback makes every heavy route’s ratio about twice a fast machine’s. Also done December 7: WAL checkpoints in a process of their own (decision 025; the api’s connection checkpoints only at 10,000 pages); A/B on the same machine, 5 interleaved runs each: 1,097 → 1,546 orders/s median, p99 lower. Then transactions committed in groups (decision 026: those that take the connection before the event loop’s next turn share one COMMIT, a savepoint each, and a read outside a transaction answers once the group it saw is committed, so the next requests’ transactions form the next group); with the checkpoints gone from the commit, an order’s COMMIT had become half of its SQL time (traced: 140 µs of 280 µs, the rest of its 700 µs JavaScript and the socket). A/B, 4 interleaved runs of two 4,000-order loads each on a machine whose hello answered 11–20k req/s: 1,086 → 1,546 orders/s (medians of each run’s better load), ratio 0.075–0.086 → 0.099–0.123; with the group’s first transaction outside a savepoint (a savepoint copies each page it changes first), 3 interleaved runs on the same machine once slower (hello 13–21k): 1,098 → 1,303 orders/s, the api’s CPU time per order 854 → 757 µs. The grouping tried on November 25 (a 5 ms window) gained about 10 %, when checkpoints still dominated the commit. Then time-ordered record ids (decision 027: an order’s, its line’s, its payment’s and a cart line’s id start with its creation time in byte order, so their index entries go to the last leaf, which the group shares): on a machine whose hello answered 73–88k req/s, where this part had measured 0.048 (0.047–0.051), a group of about 24 orders committed in 1,028 → 593 µs and 3 interleaved rounds of three 4,000-order loads gave 5,104 → 6,383 orders/s (medians of the 2nd and 3rd loads), the api’s CPU time per order 186 → 150 µs; what a group still writes is mostly the leaves keyed by the session (the order’s session index, the idempotency key, the cart line sold).',
  'flag precompute throughput':
    'answers are kept per shopper until the flags change (modules/flags/precompute-cache.ts), so a shopper asked before costs a configuration read, the serialization of its assignments and the socket write; a shopper asked for the first time also evaluates every flag through @datadog/flagging-core (about 110 µs per request, mostly evaluateForSubject and its MD5 sharding, see the "new shopper each request" row). A miss here means even the kept answers were too slow on this run: compare the hello row, which sets the ratio.',
  [INTAKE_STORED]: (row, helloSamples) =>
    'SQLite is about 46 % of the api’s busy time under this load (node --cpu-prof, November 25 2026): a 50-event batch goes into rum_events and its indexes, about 10 µs per event measured alone; JSON parsing is about 12 %, row mapping about 9 %, then Fastify and the socket. Done here: rum_events has three indexes instead of four, and one of them covers actions only (migration 013: the retry guard unique per session also serves the session queries, and the place-order count reads the actions by name; an A/B of 16 loads each on November 25, 2026 gave 61.7k events/s against 48.9k); batches that arrive together are written in one transaction (group commit, db/group-commit.ts: about 20k → 34k events/s on one api; groups of at most 1,000 rows since November 25, about 18 % more than 2,000), each event stored as the NDJSON line received, the batch statements compiled once per row count, statement journals in memory, the NUL check read from the JSON text (it walked every parsed event, 8 % of the time). Left: the received_at index (the retention purge; dropping it gained about 4 %, within the noise) and the retry guard itself. A WAL checkpoint every 10,000 pages instead of 1,000 stayed within the noise; a checkpointer thread was tried and dropped (a native addon in a terminated worker thread risks the crash class seen on Node 24).' +
    intakeOnThisMachine(row, helloSamples),
};

/**
 * The intake's budget is the one api budget in events a second, not a ratio to hello: how this
 * run's machine compares with the one whose run met it.
 */
function intakeOnThisMachine(row, helloSamples) {
  const hello = summarize(helloSamples).median;
  const ratio = summarize(row.ratio.samples).median;
  const stored = summarize(row.samples).median;
  const budget = row.budget.value;
  const round = (value) => Math.round(value).toLocaleString('en-US');
  return ` This budget is not a ratio, so it follows the machine: here the Fastify hello answered ${round(hello)} req/s (median) and the intake stored ${ratio.toFixed(2)} × that, so it would be met at a hello of about ${round(budget / ratio)} req/s, or here with ${(budget / stored).toFixed(1)} × less of the api’s time per event. The run at 03846b7 (November 28), on a machine whose hello answered 77,366 req/s, stored 52,391 events/s (0.77 × hello, met); one at 7d3420a (December 7), hello 81,450 req/s, stored 71,614 events/s (met). The WAL checkpointer process (decision 025) changed the intake by nothing measurable (A/B on this part’s machine, December 7: 523 and 506 batches/s). Profiled again on December 7 (node --cpu-prof and each statement timed, a machine whose hello answered 13–21k req/s: about 40 µs of the api per event): SQLite about 30 % (the rum_events insert 8.4 µs per event, a 750-byte payload in a row with three indexes; the COMMIT about 3 µs per event, in groups of about 860 events), the JSON parse of each line 15 %, mapping events to rows 9 %, garbage collection 7 %, the rest Fastify, the body and the monitoring store’s session, view and flag rows. What would halve it: storing a batch as one row (its lines as received) instead of one row per event, which the session and view queries read today.`;
}

export default {
  title: 'API',
  async run(ctx) {
    ensureApiBuilt(ctx.root, ctx.log);
    const dataDir = tempDir('api');
    const { ids, departments } = await prepareDatabase(ctx.root, dataDir, { stock: STOCK });
    const hello = await startHello(ctx.root);
    const api = await startApi(ctx.root, { dataDir });
    const sqlite = openSqlite(ctx.root, dataDir, { readonly: true });
    const rows = [];
    const notes = [];
    const helloSamples = [];
    const measure = async (scenario, budget) => {
      ctx.log(`${scenario.name}…`);
      const measured = await measurePairs(ctx, hello, scenario, {
        seconds: SECONDS,
        output: api.output,
      });
      rows.push(...routeRows(scenario.name, measured, budget));
      helloSamples.push(...measured.hello.map((r) => r.rps));
      return measured;
    };

    try {
      await measure(
        { name: 'GET /products/{id}', url: api.url, requests: () => productRequests(ids) },
        { on: 'ratio', op: '>=', value: 0.35, text: '≥ 0.35 × hello' },
      );
      await measure({
        name: 'department listing',
        url: api.url,
        requests: () => departmentRequests(departments),
      });
      await measure({
        name: 'add to cart',
        url: api.url,
        requests: () => addToCartRequests(ids),
      });

      // Each order needs a filled cart: carts are filled before each load (not timed) and the
      // load places exactly that many orders; its size follows the warm-up's rate.
      let orderRate = 150;
      let cookies = [];
      await measure(
        {
          name: 'place an order',
          url: api.url,
          requests: () => placeOrderRequests(cookies),
          before: async (run) => {
            const amount = run === 'warm' ? 300 : Math.max(500, Math.round(orderRate * SECONDS));
            cookies = await fillCarts(api.url, ids, amount);
            return { amount };
          },
          after: (run, result) => {
            if (run === 'warm') orderRate = result.rps;
          },
        },
        { on: 'ratio', op: '>=', value: 0.05, text: '≥ 0.05 × hello' },
      );

      await measure(
        {
          name: 'flag precompute',
          url: api.url,
          requests: () => precomputeRequests(),
        },
        { on: 'ratio', op: '>=', value: 0.1, text: '≥ 0.10 × hello' },
      );
      await measure({
        name: 'flag precompute, a new shopper each request',
        url: api.url,
        requests: () => precomputeRequests(Infinity),
      });

      // The intake: events stored per second are counted in the database, not inferred. Each
      // load sends a fixed number of batches (sized from the warm-up's rate), so when it ends
      // no batch is still in flight and the count is exact.
      const stored = [];
      let before = 0;
      let intakeRate = 100;
      let storedMismatch;
      const intake = await measure({
        name: 'intake (50-event RUM batch)',
        url: api.url,
        requests: () => intakeRequests(`${Date.now()}`),
        before: (run) => {
          before = countStoredRumEvents(sqlite);
          return { amount: run === 'warm' ? 200 : Math.max(200, Math.round(intakeRate * SECONDS)) };
        },
        after: (run, result) => {
          const added = countStoredRumEvents(sqlite) - before;
          if (added !== result.ok * RUM_BATCH_EVENTS) {
            storedMismatch = `intake run ${run}: ${added} events stored for ${result.ok} accepted batches of ${RUM_BATCH_EVENTS}`;
          }
          if (run === 'warm') intakeRate = result.rps;
          else stored.push(added / result.seconds);
        },
      });
      rows.push({
        name: INTAKE_STORED,
        unit: 'events/s',
        samples: stored,
        ratio: {
          of: HELLO,
          samples: stored.map((rate, i) => rate / intake.hello[i].rps),
        },
        budget: { on: 'value', op: '>=', value: 50_000, text: '≥ 50,000 events/s' },
      });
      if (storedMismatch) {
        throw new Error(`the intake did not store every event it accepted: ${storedMismatch}`);
      }

      rows.unshift({ name: `${HELLO} (ceiling)`, unit: 'req/s', samples: helloSamples });
      for (const row of rows.filter((candidate) => candidate.budget)) {
        if (!judge(row).met && MISSED[row.name]) {
          const why = MISSED[row.name];
          const text = typeof why === 'function' ? why(row, helloSamples) : why;
          notes.push(`${row.name} missed ${row.budget.text}: ${text}`);
        }
      }
      notes.push(
        `50 connections, ${SECONDS} s loads; each api figure's ratio pairs it with a Fastify hello-world load measured just before it (same Fastify, own process). The hello row holds every hello load of the part.`,
        `Orders: each load places one order per cart filled before it (one product, card payment, an Idempotency-Key each); adding to the cart: sessions of 40 adds over two products. Every load answered 2xx only.`,
        `Flag precompute: 1,000 shoppers asked in turn, as the shop's sample shoppers come back, so after the first thousand the answers are the ones the api keeps per shopper until the flags change (docs/architecture.md "Performance"); "a new shopper each request" evaluates every flag for every request.`,
        `Intake: events stored = new rows in rum_events + rum_views, read from the SQLite file after each load (checked equal to accepted batches × ${RUM_BATCH_EVENTS}).`,
      );
      return { rows, notes };
    } finally {
      sqlite.close();
      await api.stop();
      await hello.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
