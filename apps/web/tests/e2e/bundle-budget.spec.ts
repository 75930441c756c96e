import { expect, test } from './fixtures';
import { measureFirstVisit, readBundleBudget } from '../../scripts/first-visit-js.mjs';
import { COMPILE_HINT } from '../../build-plugins/compile-hints';

// docs/architecture.md, "Performance": the JavaScript a first visit of the product page loads,
// as served gzip-compressed, stays under the ceiling in bundle-budget.json (the bench judges the
// lower goal, `budget`); the monitoring SDK, flag-provider and build-watch chunks, loaded after
// the page is interactive, have a ceiling of their own. Every one of those scripts starts with
// V8's compile hint, so it is compiled off the main thread (build-plugins/compile-hints.ts).
test('a first visit of the product page loads JavaScript within its budget, each script compiled off the main thread', async ({
  browser,
  request,
}) => {
  const budget = readBundleBudget();
  const { scripts, totals, deferred } = await measureFirstVisit(
    browser,
    new URL(budget.page, test.info().project.use.baseURL).href,
    budget,
  );
  const listing = scripts
    .map(
      (script) =>
        `${script.group} ${(script.gzipBytes / 1024).toFixed(1)} KB ${new URL(script.url).pathname}`,
    )
    .join('\n');
  // The rule must find what it classifies: every deferred group loaded on this visit.
  for (const group of Object.keys(budget.deferred)) {
    expect(totals[group], `${group}\n${listing}`).toBeGreaterThan(0);
  }
  expect(totals.page, listing).toBeLessThanOrEqual(budget.ceiling.page);
  expect(deferred, listing).toBeLessThanOrEqual(budget.ceiling.deferred);
  for (const script of scripts) {
    const text = await (await request.get(script.url)).text();
    expect(text.startsWith(COMPILE_HINT), new URL(script.url).pathname).toBe(true);
  }
});
