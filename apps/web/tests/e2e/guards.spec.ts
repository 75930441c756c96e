import type { FlagView } from '@showroom/contracts/flags-admin';
import { GUARD_CHECK_EVERY_MIN_MS, type GuardState } from '@showroom/contracts/guards';
import { expectAccessible } from './a11y-helpers';
import { expect, test } from './fixtures';
import { withSecondShop } from './monitoring-helpers';

// Guarded rollouts (docs/decisions/019-guarded-rollouts.md) from the /flags page's guard form.
// A guard with steps sets its allocation's rollout at once, and a tripped one rolls it back:
// both change the flag for every shopper, so this file runs on its own api and web server, one
// test at a time, as scenarios.spec.ts does.
test.describe.configure({ mode: 'serial' });

// Beside this run's api; other specs use + 7 to + 46, + 55/56 (builds.spec.ts) and + 61 to + 66, autopilot.spec.ts + 51/52.
const API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 53;
const WEB_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 54;
const API = `http://127.0.0.1:${API_PORT}`;
const WEB = `http://127.0.0.1:${WEB_PORT}`;

withSecondShop(API_PORT, WEB_PORT);

const FLAG = 'new_checkout_flow';

async function apiGuard(): Promise<GuardState | null> {
  const response = await fetch(`${API}/guards/${FLAG}`);
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  return (await response.json()) as GuardState;
}

async function rolloutOf(allocation: string): Promise<number | undefined> {
  const flag = (await (await fetch(`${API}/flags/${FLAG}`)).json()) as FlagView;
  return flag.allocations.find((entry) => entry.key === allocation)?.rolloutPercentage;
}

test.afterEach(async () => {
  // A guard left behind would go on checking this shop's flag.
  await fetch(`${API}/flags/${FLAG}/guard`, { method: 'DELETE' });
});

test('the guard form creates a guard that watches, names a refused field, and removes it', async ({
  page,
}) => {
  test.setTimeout(60_000); // an axe scan of the whole /flags page takes seconds of it
  await page.goto(`${WEB}/flags`);
  const card = page.getByTestId(`flag-${FLAG}`);
  const form = card.getByTestId('guard-form');
  await expect(card.getByTestId('guard')).toHaveCount(0);
  expect(await apiGuard()).toBeNull();

  await form.getByText('Add a guard').click();
  await form.getByLabel('Allocation').selectOption('rollout');
  // Each metric kind asks for its own fields.
  await form.getByLabel('Metric').selectOption('p75-lcp');
  await expect(form.getByLabel('Page')).toBeVisible();
  await expect(form.getByLabel('Action', { exact: true })).toHaveCount(0);
  await form.getByLabel('Metric').selectOption('action-error-rate');
  await expect(form.getByLabel('Page')).toHaveCount(0);
  await form.getByLabel('Action', { exact: true }).fill('place order');
  await form.getByLabel('Error message').fill('Payment declined');
  await form.getByLabel('Control').selectOption('off');
  await form.getByLabel('Treatment').selectOption('on');
  await form.getByLabel('Margin').fill('0.05');
  await form.getByLabel('Minimum sessions').fill('30');
  await form.getByLabel('On trip').selectOption('rollback');
  await form.getByLabel('Steps (%)').fill('5, 25, 50, 100');
  await form.getByLabel('Hold time (s)').fill('600');
  // The browser refuses what the contract's limits refuse, before anything is sent.
  const checkEvery = form.getByLabel('Check every (s)');
  await expect(checkEvery).toHaveAttribute('min', String(GUARD_CHECK_EVERY_MIN_MS / 1000));
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  await checkEvery.fill('0');
  await form.getByRole('button', { name: 'Create guard' }).click();
  expect(
    await checkEvery.evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow),
  ).toBe(true);
  expect(posts.filter((url) => new URL(url).pathname.startsWith('/flags'))).toEqual([]);
  await checkEvery.fill('15');
  await form.getByRole('button', { name: 'Create guard' }).click();

  // The guard panel shows it watching, at its first step, which the rollout took at once.
  const panel = card.getByTestId('guard');
  await expect(panel.getByTestId('guard-status')).toHaveText('Watching');
  await expect(panel).toContainText('action-error-rate of “place order”');
  await expect(panel.getByTestId('guard-step')).toHaveText(
    'Step 1 of 4: 5 → 25 → 50 → 100 % · rollout 5 %',
  );
  await expect(card.getByLabel('Rollout percentage of rollout')).toHaveValue('5');
  const created = await apiGuard();
  expect(created).toMatchObject({
    status: 'watching',
    createdBy: 'flags page',
    definition: {
      allocation: 'rollout',
      metric: { kind: 'action-error-rate', action: 'place order', error: 'Payment declined' },
      control: 'off',
      treatment: 'on',
      margin: 0.05,
      minSessions: 30,
      action: 'rollback',
      steps: [5, 25, 50, 100],
      holdMs: 600_000,
      checkEveryMs: 15_000,
    },
  });

  // A value the api refuses: its message names the field, shown by the form and marked on the
  // input; the guard stays as it was.
  await form.getByText('Replace the guard').click();
  await expect(form.getByLabel('Steps (%)')).toHaveValue('5, 25, 50, 100');
  await form.getByLabel('Steps (%)').fill('50, 25');
  await form.getByRole('button', { name: 'Replace guard' }).click();
  const error = form.getByTestId('guard-error');
  await expect(error).toHaveText(`${FLAG}: steps must rise strictly (steps)`);
  await expect(form.getByLabel('Steps (%)')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Steps (%)')).toBeFocused();
  await expect(form.getByLabel('Steps (%)')).toHaveAccessibleDescription(
    /steps must rise strictly/,
  );
  await expect(page.getByTestId('flags-error')).toHaveCount(0);
  // (The checker may have checked it meanwhile: the definition and its start stay.)
  expect(await apiGuard()).toMatchObject({
    status: 'watching',
    createdAt: created!.createdAt,
    definition: created!.definition,
    percentage: 5,
  });
  await expect(panel.getByTestId('guard-step')).toHaveText(
    'Step 1 of 4: 5 → 25 → 50 → 100 % · rollout 5 %',
  );
  await expectAccessible(page); // the open form with its error

  // Removed: the panel goes, the rollout stays where the guard left it.
  await form.getByRole('button', { name: 'Remove guard' }).click();
  await expect(card.getByTestId('guard')).toHaveCount(0);
  await expect(form.getByRole('button', { name: 'Remove guard' })).toHaveCount(0);
  expect(await apiGuard()).toBeNull();
  expect(await rolloutOf('rollout')).toBe(5);
  await expect(card.getByLabel('Rollout percentage of rollout')).toHaveValue('5');
});
