import type { Page } from 'playwright-core';
import type { Scenario } from '@showroom/contracts/scenarios';
import type { TrafficFunnelStep, TrafficJourney } from '@showroom/contracts/traffic';
import {
  addToCart,
  checkout,
  productShown,
  runJourney,
  STEP_TIMEOUT,
  waitForStartup,
} from './journeys.js';

/** What a journey gets: the page, and the session's plan as actions. */
export interface Shopper {
  page: Page;
  origin: string;
  /** The session's departments (from the catalog) and search words to choose from. */
  departments: readonly string[];
  /** Waits the next think time of the plan. */
  think(): Promise<void>;
  /** Whether the shopper leaves at this funnel step (true: the journey ends there). */
  leavesAt(step: TrafficFunnelStep): boolean;
  /** Picks one of the entries with the plan's next draw. */
  choose<T>(entries: readonly T[]): T;
  /** A path with the session's query switches (for its first page). */
  withSwitches(path: string): string;
  /** Unique to this session in every run (its sign-up e-mail). */
  uniqueId: string;
  /** The scenario of a `scenario` journey. */
  scenario: Scenario | null;
}

/** How a journey ended. */
export interface JourneyResult {
  /** An order was placed. */
  converted: boolean;
  /** The shopper left at a funnel step (drop-off) before the journey's end. */
  leftAt: TrafficFunnelStep | null;
}

export const SEARCH_WORDS = [
  'sofa',
  'oak',
  'chair',
  'table',
  'lamp',
  'green',
  'bed',
  'desk',
  'walnut',
  'sofe',
];
const SORTS = ['price-asc', 'price-desc', 'name-asc', 'name-desc'] as const;

async function visit(shopper: Shopper, path: string, first = false): Promise<void> {
  await shopper.page.goto(`${shopper.origin}${first ? shopper.withSwitches(path) : path}`);
  await waitForStartup(shopper.page);
}

/** From a listing (department or search results): opens one of the product cards shown. */
async function openProduct(shopper: Shopper): Promise<void> {
  const { page } = shopper;
  const cards = page.getByTestId('product-card');
  await cards.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const count = Math.min(await cards.count(), 12);
  const index = shopper.choose(Array.from({ length: count }, (_, i) => i));
  await cards.nth(index).locator('a.product-card__link').click();
  await productShown(page).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
}

async function department(shopper: Shopper, first: boolean): Promise<void> {
  await visit(shopper, `/department/${shopper.choose(shopper.departments)}`, first);
}

const done = (leftAt: TrafficFunnelStep | null = null, converted = false): JourneyResult => ({
  converted,
  leftAt,
});

/** Product page to the cart page, leaving at `product` or `cart` when the plan says so. */
async function toCart(shopper: Shopper): Promise<TrafficFunnelStep | null> {
  const { page } = shopper;
  await department(shopper, true);
  await shopper.think();
  await openProduct(shopper);
  await shopper.think();
  if (shopper.leavesAt('product')) return 'product';
  await addToCart(page);
  await shopper.think();
  await page.getByRole('link', { name: /^Cart/ }).click();
  await page.waitForURL(/\/cart$/, { timeout: STEP_TIMEOUT, waitUntil: 'commit' });
  await page
    .getByRole('link', { name: 'Checkout', exact: true })
    .waitFor({ timeout: STEP_TIMEOUT });
  await shopper.think();
  if (shopper.leavesAt('cart')) return 'cart';
  return null;
}

async function toOrder(shopper: Shopper): Promise<JourneyResult> {
  const left = await toCart(shopper);
  if (left) return done(left);
  let leftAt: TrafficFunnelStep | null = null;
  const outcome = await checkout(shopper.page, {
    goOn: async (step) => {
      await shopper.think();
      if (shopper.leavesAt(step)) leftAt = step;
      return leftAt === null;
    },
  });
  if (outcome === 'error') throw new Error('the order was not placed (checkout error)');
  return done(leftAt, outcome === 'order');
}

export const JOURNEYS: Record<TrafficJourney, (shopper: Shopper) => Promise<JourneyResult>> = {
  async browse(shopper) {
    await department(shopper, true);
    await shopper.think();
    await openProduct(shopper);
    await shopper.think();
    if (shopper.choose([true, false])) {
      await shopper.page.goBack();
      await openProduct(shopper);
      await shopper.think();
    }
    return done();
  },

  async search(shopper) {
    const { page } = shopper;
    await visit(shopper, '/', true);
    await shopper.think();
    const box = page.getByLabel('Search products');
    await box.fill(shopper.choose(SEARCH_WORDS));
    await box.press('Enter');
    await page.waitForURL(/\/search\?/, { timeout: STEP_TIMEOUT, waitUntil: 'commit' });
    await page
      .getByTestId('product-card')
      .first()
      .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await shopper.think();
    await openProduct(shopper);
    await shopper.think();
    return done();
  },

  async sort(shopper) {
    const { page } = shopper;
    await department(shopper, true);
    await shopper.think();
    const sort = shopper.choose(SORTS);
    const filters = page.getByTestId('listing-filters');
    // With JavaScript the listing applies a changed field at once (its Apply button is for
    // pages without it).
    await filters.getByLabel('Sort by').selectOption(sort);
    await page.waitForURL(new RegExp(`sort=${sort}`), {
      timeout: STEP_TIMEOUT,
      waitUntil: 'commit',
    });
    await shopper.think();
    await openProduct(shopper);
    await shopper.think();
    return done();
  },

  async 'abandon-cart'(shopper) {
    const left = await toCart(shopper);
    return done(left);
  },

  checkout: toOrder,

  // The single-page flow is the first page's switch (the planner's switches add it).
  'checkout-single-page': toOrder,

  async 'signup-loyalty'(shopper) {
    const { page } = shopper;
    await visit(shopper, '/signup', true);
    await shopper.think();
    const email = `traffic-${shopper.uniqueId}@example.com`;
    const form = page.getByTestId('signup-form');
    await form.getByLabel('Full name').fill('Traffic Shopper');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password').fill('traffic-password-1');
    await form.getByLabel('Password').press('Enter');
    await page.waitForURL(/\/signup-verify$/, { timeout: STEP_TIMEOUT, waitUntil: 'commit' });
    // The code, read where a presenter reads it: the outbox, in another tab.
    const outbox = await page.context().newPage();
    let code = '';
    try {
      await outbox.goto(`${shopper.origin}/outbox`);
      const message = outbox
        .getByTestId('outbox-message')
        .filter({ has: outbox.getByTestId('outbox-to').filter({ hasText: email }) })
        .first();
      code = (
        (await message.getByTestId('outbox-code').textContent({ timeout: STEP_TIMEOUT })) ?? ''
      ).trim();
    } finally {
      await outbox.close();
    }
    await shopper.think();
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('verified-email').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await shopper.think();
    await visit(shopper, '/loyalty-signup');
    await page.getByLabel('I agree to the programme terms').check();
    await shopper.think();
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByTestId('loyalty-joined').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    return done();
  },

  async scenario(shopper) {
    if (!shopper.scenario) throw new Error('a scenario journey without a scenario');
    await runJourney(shopper.page, shopper.scenario, shopper.origin, {
      pause: () => shopper.think(),
    });
    return done();
  },
};
