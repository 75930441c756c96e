import type { Locator, Page } from 'playwright-core';
import {
  scenarioStartPath,
  SCENARIO_QUERY_KEY,
  type JourneyStep,
  type Scenario,
  type StepTarget,
} from '@showroom/contracts/scenarios';

/**
 * The one runner of scenario journeys (data/scenarios.json, decision 011): the traffic
 * generator's scenario sessions and the browser suite's scenario proofs
 * (apps/web/tests/e2e/scenario-journeys.ts) both use it. Plain Playwright (playwright-core), no
 * test runner: waits are locator waits that throw on timeout.
 */

/** How long a step waits for what it expects (several browsers share the machine). */
export const STEP_TIMEOUT = 15_000;
/** How long a page may take to finish the shop's start-up (or a URL to change). */
const NAVIGATION_TIMEOUT = 15_000;

export const TEST_CARDS = {
  succeeds: '4242 4242 4242 4242',
  declines: '4000 0000 0000 0002',
} as const;

export const TEST_ADDRESS = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  address1: '12 Workshop Lane',
  city: 'Springfield',
  postalCode: '62701',
};

/** Waits until the shop's browser start-up has finished on this page. */
export async function waitForStartup(page: Page, timeout = NAVIGATION_TIMEOUT): Promise<void> {
  await page.locator('html[data-startup="done"]').waitFor({ state: 'attached', timeout });
}

/** A card expiry three years ahead, as MM/YY. */
function futureExpiry(): string {
  return `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
}

async function fillAddress(page: Page): Promise<void> {
  const form = page.getByTestId('address-form');
  await form.getByLabel('Full name').fill(TEST_ADDRESS.name);
  await form.getByLabel('E-mail').fill(TEST_ADDRESS.email);
  await form.getByLabel('Address', { exact: true }).fill(TEST_ADDRESS.address1);
  await form.getByLabel('City').fill(TEST_ADDRESS.city);
  await form.getByLabel('Postal code').fill(TEST_ADDRESS.postalCode);
}

async function fillCard(page: Page, number: string): Promise<void> {
  const card = page.getByTestId('card-fields');
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry (MM/YY)').fill(futureExpiry());
  await card.getByLabel('Security code (CVC)').fill('123');
}

function locate(page: Page, target: StepTarget): Locator {
  if (target.testId) return page.getByTestId(target.testId);
  if (target.label) return page.getByLabel(target.label);
  if (target.role) {
    return page.getByRole(target.role as Parameters<Page['getByRole']>[0], {
      ...(target.name ? { name: target.name } : {}),
    });
  }
  throw new Error(`A step target needs testId, label or role: ${JSON.stringify(target)}`);
}

/**
 * Opens a scenario's shareable link (its start page) and waits until the browser is on the
 * scenario's entry page with start-up done: the link starts it, then loads the page.
 */
export async function openScenarioLink(page: Page, scenario: Scenario, origin = ''): Promise<void> {
  await page.goto(`${origin}${scenarioStartPath(scenario.id)}`);
  const entry = new URL(scenario.entry, 'http://entry.invalid').pathname;
  await page.waitForURL(
    (url) => url.pathname === entry && url.searchParams.get(SCENARIO_QUERY_KEY) === scenario.id,
    { timeout: NAVIGATION_TIMEOUT },
  );
  await waitForStartup(page);
}

/** Where a shopper on the way to an order may stop (the traffic generator's drop-off). */
export type CheckoutStep = 'checkout' | 'payment';

export interface CheckoutOptions {
  /** Asked when the shopper reaches a step; false leaves the checkout there. */
  goOn?: (step: CheckoutStep) => Promise<boolean>;
}

/** How a checkout ended. */
export type CheckoutOutcome = 'order' | 'error' | 'left';

/**
 * Places an order from wherever the page is: to the cart and the checkout by the shop's own
 * links (a client-side navigation, as a shopper clicks), then through whichever checkout the
 * page shows. The outcome (an order, a declined card, a bug) is the scenario's business: this
 * waits for either.
 */
export async function checkout(
  page: Page,
  options: CheckoutOptions = {},
): Promise<CheckoutOutcome> {
  if (new URL(page.url()).pathname !== '/checkout') {
    if (new URL(page.url()).pathname !== '/cart') {
      await page.getByRole('link', { name: /^Cart/ }).click();
      await page.waitForURL(/\/cart$/, { timeout: NAVIGATION_TIMEOUT, waitUntil: 'commit' });
    }
    await page.getByRole('link', { name: 'Checkout', exact: true }).click();
  }
  const classic = page.getByTestId('checkout-classic');
  const single = page.getByTestId('checkout-single-page');
  await classic.or(single).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  if (options.goOn && !(await options.goOn('checkout'))) return 'left';
  await fillAddress(page);
  if (await classic.isVisible()) {
    await page.getByRole('button', { name: 'Continue to payment' }).click();
  }
  await fillCard(page, TEST_CARDS.succeeds);
  const placeOrder = page.getByTestId('place-order');
  if (!(await placeOrder.isVisible())) {
    await page.getByRole('button', { name: 'Continue to review' }).click();
  }
  if (options.goOn && !(await options.goOn('payment'))) return 'left';
  await placeOrder.click();
  const thanks = page.getByRole('heading', { name: 'Thank you for your order' });
  await thanks
    .or(page.getByTestId('checkout-error'))
    .or(page.locator('[data-testid="error-modal"][open]'))
    .first()
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  return (await thanks.isVisible()) ? 'order' : 'error';
}

/** On a product page: adds one to the cart and waits for the shop to confirm it. */
/**
 * The product shown on a product page: the standard product layout, or the landing layout of
 * the season's table (/department/tables/product/10, the LCP scenario's page).
 */
export function productShown(page: Page): Locator {
  return page.getByTestId('product-detail').or(page.getByTestId('landing'));
}

export async function addToCart(page: Page): Promise<void> {
  const detail = productShown(page);
  await detail.getByTestId('add-to-cart').click();
  await detail
    .getByTestId('add-to-cart-result')
    .filter({ hasText: 'Added to cart' })
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
}

export interface JourneyOptions {
  /** Before each step after the first (the traffic generator's think time). */
  pause?: () => Promise<void>;
}

export async function runStep(
  page: Page,
  step: JourneyStep,
  origin: string,
  options: JourneyOptions = {},
): Promise<void> {
  switch (step.action) {
    case 'visit':
      await page.goto(`${origin}${step.path}`);
      await waitForStartup(page);
      return;
    case 'click':
      await locate(page, step.target).click();
      return;
    case 'expect':
      // Several shoppers run at once: a step may wait on the api a while.
      await locate(page, step.target).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      return;
    case 'addToCart':
      await addToCart(page);
      return;
    case 'checkout':
      await checkout(page);
      return;
    case 'repeat':
      for (let round = 0; round < step.times; round++) {
        for (const inner of step.steps) {
          await options.pause?.();
          await runStep(page, inner, origin, options);
        }
      }
      return;
  }
}

/** Opens the scenario's link, then does what its journey says. */
export async function runJourney(
  page: Page,
  scenario: Scenario,
  origin = '',
  options: JourneyOptions = {},
): Promise<void> {
  await openScenarioLink(page, scenario, origin);
  for (const step of scenario.journey) {
    await options.pause?.();
    await runStep(page, step, origin, options);
  }
  // A shopper stays until the page has loaded (its images), as the monitoring then saw it.
  await page.waitForLoadState('load');
}
