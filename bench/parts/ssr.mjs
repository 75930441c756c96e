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

/** Where a product page's time goes (node --cpu-prof of the web server under this load). */
const SSR_PROFILE =
  'Product page profile (node --cpu-prof of the web server at 50 connections with brotli, November 24 2026): a third of its main thread idle waiting for the api, which shares the two cores (each page asks it for the product and the related products), React Router 11 % (route matching, turbo-stream data), compression 10 % on the main thread and more on libuv threads, garbage collection 8 %, React rendering 7 %, fetch to the api 4 %. The same load without compression serves about 185 pages/s against about 97 with brotli: compressing the 80 KB document (inline stylesheet 27 KB, photo stand-in 20 KB) is about half the cost. Done: the stream goes out one chunk per part (3 instead of 18 compressed blocks per page, about 10 % more pages/s). What would meet 0.5×: a smaller document (the stylesheet as a cached file again, at the cost of a render-blocking request), one api call per page, or the api on other cores.';

export default {
  title: 'Server rendering',
  async run(ctx) {
    const shop = await ctx.shop();
    const bare = await startBarePage(ctx.root);
    const targets = {
      bare: bare.url,
      product: `${shop.webUrl}/department/chairs/product/13`,
      department: `${shop.webUrl}/department/chairs`,
    };
    const samples = { bare: [], product: [], department: [] };
    const latency = { product: [], department: [] };
    try {
      for (const url of Object.values(targets)) await warm(url, { headers: HEADERS });
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
          `run ${run + 1}: bare ${samples.bare.at(-1).toFixed(0)}, product ${samples.product.at(-1).toFixed(0)}, department ${samples.department.at(-1).toFixed(0)} req/s`,
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
      ],
      notes: [
        ...(judge(productPage).met ? [] : [SSR_PROFILE]),
        `${DURATION_SECONDS} s per load at 50 connections with a browser's accept-encoding (the servers answer brotli); the shop's pages ask its api, which runs on the same machine.`,
      ],
    };
  },
};
