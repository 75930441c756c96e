// Search latency as one shopper sees it: one client sending requests one after the other (no
// concurrency), at 1× and 100× the shop's catalog (docs/decisions/009-search.md). Each scale is
// its own api (apps/api/dist/server.js over a fresh DATA_DIR) with the catalog copied into its
// SQLite file before it starts (bench/lib/api.mjs prepareDatabase; the triggers of migration
// 006 index every copy). The queries are the catalog's own words picked in a fixed order, so
// every run and every scale asks the same things:
//   GET /search              whole words of names, materials and descriptions, prefixes of
//                            name words, two words of one name with the second unfinished, and
//                            misspelt words (mostly nothing found: the spelling suggestion and
//                            popular products); every fifth also filtered (in stock) and sorted
//                            by price
//   GET /search/suggestions  every prefix of words as they are typed, one letter at a time
// BENCH_SEARCH_QUERIES (default 300) is the number of requests of one run of each.
import fs from 'node:fs';
import { ensureApiBuilt, prepareDatabase, readCatalog, startApi, tempDir } from '../lib/api.mjs';
import { percentile } from '../lib/stats.mjs';

const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 300);
const SCALES = [1, 100];
const BUDGET_MS = 50;

/** The `i`-th pick of `list` for the `i`-th query: a prime stride spreads picks over the list. */
const nth = (list, i, stride = 7_919) => list[(i * stride) % list.length];

const wordsOf = (text) =>
  (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .match(/\p{L}+/gu) ?? []
  ).filter((word) => word.length >= 3);

function catalogWords(catalog) {
  const names = catalog.products.map((p) => wordsOf(p.name));
  const unique = (lists) => [...new Set(lists.flat())].sort();
  return {
    names,
    nameWords: unique(names),
    materialWords: unique(catalog.products.flatMap((p) => p.materials.map(wordsOf))),
    descriptionWords: unique(catalog.products.map((p) => wordsOf(p.description))).filter(
      (word) => word.length >= 5,
    ),
  };
}

/**
 * QUERIES search paths in a fixed, mixed order: of every 20, 7 whole words of names or
 * materials, 4 description words, 4 prefixes, 4 two-word starts of a name, 1 misspelling.
 */
function searchPaths(catalog) {
  const { names, nameWords, materialWords, descriptionWords } = catalogWords(catalog);
  const twoWordNames = names.filter((words) => words.length >= 2);
  const longWords = nameWords.filter((word) => word.length >= 5);
  return Array.from({ length: QUERIES }, (_, i) => {
    const slot = i % 20;
    let q;
    if (slot < 7) q = nth(slot % 3 === 0 ? materialWords : nameWords, i);
    else if (slot < 11) q = nth(descriptionWords, i);
    else if (slot < 15) q = nth(nameWords, i).slice(0, 2 + (i % 4));
    else if (slot < 19) {
      const name = nth(twoWordNames, i);
      const at = i % (name.length - 1);
      const second = name[at + 1];
      q = `${name[at]} ${second.slice(0, Math.max(2, Math.ceil(second.length / 2)))}`;
    } else {
      const word = nth(longWords, i);
      const at = 1 + (i % (word.length - 1));
      q = `${word.slice(0, at)}${word[at] === 'x' ? 'q' : 'x'}${word.slice(at + 1)}`;
    }
    const filters = i % 5 === 4 ? '&inStock=true&sort=price-asc' : '';
    return `/search?q=${encodeURIComponent(q)}${filters}`;
  });
}

/** QUERIES suggestion paths: words typed one letter at a time (from the second letter). */
function suggestionPaths(catalog) {
  const { nameWords, materialWords } = catalogWords(catalog);
  const words = [...nameWords, ...materialWords];
  const paths = [];
  for (let i = 0; paths.length < QUERIES; i++) {
    const word = nth(words, i);
    for (let length = 2; length <= word.length && paths.length < QUERIES; length++) {
      paths.push(`/search/suggestions?q=${encodeURIComponent(word.slice(0, length))}`);
    }
  }
  return paths;
}

/** Sends `paths` one after the other; answers each latency in ms and how many found nothing. */
async function sequential(url, paths) {
  const latencies = [];
  let empty = 0;
  for (const path of paths) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`);
    const body = await response.text();
    latencies.push(performance.now() - started);
    if (!response.ok) throw new Error(`${path}: ${response.status} ${body.slice(0, 300)}`);
    const answer = JSON.parse(body);
    if ((answer.total ?? answer.terms.length + answer.products.length) === 0) empty++;
  }
  return { latencies, empty };
}

export default {
  title: 'Search',
  async run(ctx) {
    ensureApiBuilt(ctx.root, ctx.log);
    const catalog = readCatalog(ctx.root);
    const routes = [
      { name: 'GET /search', paths: searchPaths(catalog) },
      { name: 'GET /search/suggestions', paths: suggestionPaths(catalog) },
    ];
    const rows = [];
    const notes = [];
    for (const times of SCALES) {
      const dataDir = tempDir(`search-${times}x`);
      try {
        const { ids } = await prepareDatabase(ctx.root, dataDir, { times });
        const size = `${times}× (${ids.length.toLocaleString('en-US')} products)`;
        const api = await startApi(ctx.root, { dataDir });
        try {
          for (const route of routes) {
            await sequential(api.url, route.paths); // warm-up: not recorded
            const p50 = [];
            const p99 = [];
            let empty = 0;
            for (let run = 0; run < ctx.runs; run++) {
              const result = await sequential(api.url, route.paths);
              p50.push(percentile(result.latencies, 50));
              p99.push(percentile(result.latencies, 99));
              empty = result.empty;
              ctx.log(
                `${route.name} ${size} run ${run + 1}: p50 ${p50.at(-1).toFixed(2)} ms, p99 ${p99.at(-1).toFixed(2)} ms`,
              );
            }
            const budget =
              route.name === 'GET /search' && times === 100
                ? {
                    budget: {
                      on: 'value',
                      op: '<=',
                      value: BUDGET_MS,
                      text: `≤ ${BUDGET_MS} ms (SQLite)`,
                    },
                  }
                : {};
            rows.push(
              { name: `${route.name} ${size} p50`, unit: 'ms', samples: p50 },
              { name: `${route.name} ${size} p99`, unit: 'ms', samples: p99, ...budget },
            );
            if (times === 1) {
              notes.push(
                `${route.name}: ${route.paths.length} requests per run, ${empty} of them finding nothing.`,
              );
            }
          }
        } finally {
          await api.stop();
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
    notes.push(
      `One client, each request sent when the previous answer has arrived (fetch, keep-alive), after one unrecorded pass; p50 and p99 over each run's requests. Each scale is its own api over its own SQLite file: the catalog copied ${SCALES.join('× and ')}× (copies keep their words, so a query matches up to 100 times as many products at 100×, and the facets count them all).`,
    );
    return { rows, notes };
  },
};
