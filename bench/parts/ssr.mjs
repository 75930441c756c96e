// Server rendering: requests/s at 50 connections for a product page and a department page,
// as a ratio to a bare React Router page with no data, built and served the same way, measured
// alternately in the same run.
import { startBarePage } from '../lib/bare-page.mjs';
import { load, warm } from '../lib/load.mjs';
import { judge } from '../lib/report.mjs';
import { ratios } from '../lib/stats.mjs';

/** What a browser sends: the servers answer compressed, as they would to a shopper. */
const HEADERS = {
  accept: 'text/html,application/xhtml+xml',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
};
const DURATION_SECONDS = 5;

/**
 * Where a product page's time goes when it is rendered for its request (node --cpu-prof of the
 * web server under this load, before product pages were served from the page cache).
 */
const SSR_PROFILE =
  'Product page profile (node --cpu-prof of the web server at 50 connections with brotli, November 24 2026): a third of its main thread idle waiting for the api, which shares the two cores (each page asks it for the product and the related products), React Router 11 % (route matching, turbo-stream data), compression 10 % on the main thread and more on libuv threads, garbage collection 8 %, React rendering 7 %, fetch to the api 4 %. The same load without compression serves about 185 pages/s against about 97 with brotli: compressing the 80 KB document (inline stylesheet 27 KB, photo stand-in 20 KB) is about half the cost. Done: the stream goes out one chunk per part (3 instead of 18 compressed blocks per page, about 10 % more pages/s). What would meet 0.5× for a render per request: a smaller document (the stylesheet as a cached file again, at the cost of a render-blocking request), one api call per page, or the api on other cores.';

/** A query string makes the web server render the page for its request (server/page-cache.ts). */
const PER_REQUEST_QUERY = '?bench=render';
const CACHE_HEADER = 'x-showroom-cache';

export default {
  title: 'Server rendering',
  async run(ctx) {
    const shop = await ctx.shop();
    const bare = await startBarePage(ctx.root);
    const targets = {
      bare: bare.url,
      product: `${shop.webUrl}/department/chairs/product/13`,
      department: `${shop.webUrl}/department/chairs`,
      rendered: `${shop.webUrl}/department/chairs/product/13${PER_REQUEST_QUERY}`,
    };
    const samples = { bare: [], product: [], department: [], rendered: [] };
    const latency = { product: [], department: [], rendered: [] };
    /** How the web server answered each page (its page cache header) after the warm-up. */
    const served = {};
    try {
      for (const [name, url] of Object.entries(targets)) {
        await warm(url, { headers: HEADERS });
        if (name === 'bare') continue;
        const answer = await fetch(url, { headers: HEADERS });
        await answer.arrayBuffer();
        served[name] = answer.headers.get(CACHE_HEADER) ?? 'rendered per request';
      }
      for (let run = 0; run < ctx.runs; run++) {
        for (const [name, url] of Object.entries(targets)) {
          const result = await load(url, { headers: HEADERS, durationSeconds: DURATION_SECONDS });
          if (result.non2xx || result.errors) {
            throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
          }
          samples[name].push(result.rps);
          if (latency[name]) latency[name].push(result.p99);
        }
        ctx.log(
          `run ${run + 1}: bare ${samples.bare.at(-1).toFixed(0)}, product ${samples.product.at(-1).toFixed(0)}, department ${samples.department.at(-1).toFixed(0)}, product rendered per request ${samples.rendered.at(-1).toFixed(0)} req/s`,
        );
      }
    } finally {
      await bare.stop();
    }
    const productPage = {
      name: 'product page /department/chairs/product/13',
      unit: 'req/s',
      samples: samples.product,
      ratio: { of: 'bare page', samples: ratios(samples.product, samples.bare) },
      budget: { on: 'ratio', op: '>=', value: 0.5, text: '≥ 0.5 × bare' },
    };
    return {
      rows: [
        { name: 'bare React Router page', unit: 'req/s', samples: samples.bare },
        productPage,
        { name: 'product page p99', unit: 'ms', samples: latency.product },
        {
          name: 'department page /department/chairs',
          unit: 'req/s',
          samples: samples.department,
          ratio: { of: 'bare page', samples: ratios(samples.department, samples.bare) },
        },
        { name: 'department page p99', unit: 'ms', samples: latency.department },
        {
          name: `product page rendered per request (${PER_REQUEST_QUERY})`,
          unit: 'req/s',
          samples: samples.rendered,
          ratio: { of: 'bare page', samples: ratios(samples.rendered, samples.bare) },
        },
        { name: 'product page rendered per request p99', unit: 'ms', samples: latency.rendered },
      ],
      notes: [
        ...(judge(productPage).met ? [] : [SSR_PROFILE]),
        `How the web server answered after the warm-up (X-Showroom-Cache): product page ${served.product}, department page ${served.department}, with a query string ${served.rendered}. Pages that do not depend on the shopper are rendered once per 10 s and served from memory; an order through the web server forgets its product pages (docs/architecture.md "Performance"). The row rendered per request is the cost of a render: the product and its recommendations asked of the api, React, compression.`,
        `${DURATION_SECONDS} s per load at 50 connections with a browser's accept-encoding (the servers answer brotli); the shop's pages ask its api, which runs on the same machine.`,
      ],
    };
  },
};
