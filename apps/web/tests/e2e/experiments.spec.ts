import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';

const API = `http://localhost:${process.env.E2E_API_PORT ?? 3101}`;

// fault_recommendations_error is evaluated by the api only (decision 010): no browser sends
// exposures of it, so this test's are the only ones and the numbers are exact. Each attempt's
// exposures start at its own `since`, so a retry does not count the last attempt's.
const FLAG = 'fault_recommendations_error';
// home_hero_banner's `experiment` allocation splits spring/craft 50/50.
const SPLIT_FLAG = 'home_hero_banner';

/** Exposures as the Datadog browser provider posts them through the intake (NDJSON). */
async function postExposures(
  request: APIRequestContext,
  flag: string,
  allocation: string,
  subjects: { id: string; variant: string; at: number }[],
) {
  const body = subjects
    .map((subject) =>
      JSON.stringify({
        allocation: { key: allocation },
        flag: { key: flag },
        variant: { key: subject.variant },
        subject: { id: subject.id, attributes: {} },
        service: 'showroom-web',
        timestamp: subject.at,
      }),
    )
    .join('\n');
  const res = await request.post(
    `${API}/intake?ddforward=${encodeURIComponent('/api/v2/exposures?ddsource=browser')}`,
    { headers: { 'content-type': 'text/plain;charset=UTF-8' }, data: body },
  );
  expect(res.status()).toBe(202);
}

async function postPurchases(request: APIRequestContext, buyers: string[], at: number) {
  const res = await request.post(`${API}/flags/track`, {
    data: {
      events: buyers.map((targetingKey, i) => ({
        targetingKey,
        name: 'purchase',
        timestamp: at + i,
        value: 5_000,
        currency: 'USD',
      })),
    },
  });
  expect(res.status()).toBe(202);
  expect(await res.json()).toEqual({ stored: buyers.length });
}

test.describe('experiment results', () => {
  test('the report shows counts, rates, lift and p-value per variant, the chart and the methods', async ({
    page,
    request,
  }) => {
    const since = Date.now() - 60 * 60_000;
    const run = `e2e-${since}`;
    // 40 subjects per variant; off: 8 buyers (20 %), fault: 2 buyers (5 %), each $50.00.
    const subjects = ['off', 'fault'].flatMap((variant) =>
      Array.from({ length: 40 }, (_, i) => ({
        id: `${run}-${variant}-${i}`,
        variant,
        at: since + i * 60_000,
      })),
    );
    await postExposures(request, FLAG, 'fault-on', subjects);
    const buyers = [
      ...Array.from({ length: 8 }, (_, i) => `${run}-off-${i}`),
      ...Array.from({ length: 2 }, (_, i) => `${run}-fault-${i}`),
    ];
    await postPurchases(request, buyers, since + 50 * 60_000);

    await page.goto('/inspector');
    await page.getByTestId('experiments-link').click();
    await expect(page).toHaveURL(/\/experiments$/);
    await expect(
      page.getByTestId('experiment-list').locator(`tr[data-flag="${FLAG}"]`),
    ).toBeVisible();

    await page.goto(`/experiments/${FLAG}?since=${since}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Experiment: ${FLAG}`);
    const row = (variant: string) =>
      page.getByTestId('experiment-table').locator(`tr[data-variant="${variant}"]`);
    await expect(row('off').getByTestId('control-badge')).toHaveText('control');
    await expect(row('fault').getByTestId('control-badge')).toHaveCount(0);
    await expect(row('off').getByTestId('exposed')).toHaveText('40');
    await expect(row('off').getByTestId('conversions')).toHaveText('8');
    // Wilson 95 % of 8/40: [10.5 %, 34.8 %].
    await expect(row('off').getByTestId('conversion-rate')).toHaveText('20.0 % [10.5 %, 34.8 %]');
    await expect(row('off').getByTestId('revenue-per-subject')).toContainText('$10.00');
    await expect(row('fault').getByTestId('exposed')).toHaveText('40');
    await expect(row('fault').getByTestId('conversions')).toHaveText('2');
    await expect(row('fault').getByTestId('conversion-rate')).toContainText('5.0 %');
    await expect(row('fault').getByTestId('revenue-per-subject')).toContainText('$2.50');
    // −15 pp, unpooled interval ±1.96·√(0.2·0.8/40 + 0.05·0.95/40) = ±14.1 pp; pooled z = −2.03.
    await expect(row('fault').getByTestId('conversion-lift')).toHaveText(
      '−15.0 pp [−29.1 pp, −0.9 pp] (−75.0 %)',
    );
    await expect(row('fault').getByTestId('p-value')).toHaveText('0.043');
    // No allocation of this flag splits subjects: nothing to check.
    await expect(page.getByTestId('srm-verdict')).toHaveAttribute('data-srm', 'not-checked');

    const chart = page.getByTestId('conversion-series');
    await expect(chart.locator('svg title')).toHaveText(
      `Cumulative conversion rate per variant: ${FLAG}`,
    );
    await expect(chart.locator('svg desc')).not.toBeEmpty();
    for (const [variant, last] of [
      ['off', '0.2'],
      ['fault', '0.05'],
    ] as const) {
      const line = chart.locator(`polyline[data-series="${variant}"]`);
      await expect(line).toHaveAttribute('data-last', last);
      expect(Number(await line.getAttribute('data-points'))).toBeGreaterThan(10);
    }
    const methods = page.getByTestId('methods');
    for (const method of [
      'Wilson score interval',
      'pooled two-proportion z-test',
      'chi-square goodness of fit',
      '@stdlib/stats-base-dists-*',
    ]) {
      await expect(methods).toContainText(method);
    }
  });

  test('a split far from its allocation raises the sample-ratio warning', async ({
    page,
    request,
  }) => {
    const since = Date.now() - 60 * 60_000;
    const run = `e2e-srm-${since}`;
    // 150 spring, 50 craft on a 50/50 split: χ² = 50.
    const subjects = Array.from({ length: 200 }, (_, i) => ({
      id: `${run}-${i}`,
      variant: i < 150 ? 'spring' : 'craft',
      at: since + i * 1_000,
    }));
    await postExposures(request, SPLIT_FLAG, 'experiment', subjects);

    await page.goto(`/experiments/${SPLIT_FLAG}?since=${since}`);
    const verdict = page.getByTestId('srm-verdict');
    await expect(verdict).toHaveAttribute('data-srm', 'mismatch');
    await expect(verdict.getByRole('alert')).toContainText('Sample-ratio mismatch');
    await expect(verdict.getByRole('alert')).toContainText('p < 0.001');
  });

  test('an unknown flag is a 404 page naming it', async ({ page, consoleWatch }) => {
    consoleWatch.allow(/status of 404/); // the page's own answer
    const res = await page.goto('/experiments/no_such_flag');
    expect(res?.status()).toBe(404);
    await expect(page.getByText('No experiment no_such_flag')).toBeVisible();
  });
});
