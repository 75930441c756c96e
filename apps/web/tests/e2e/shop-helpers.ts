import type { APIRequestContext, Page } from '@playwright/test';
import type { Cart } from '@showroom/contracts/cart';
import type { Order } from '@showroom/contracts/orders';
import { expect } from './fixtures';

/** This run's api, reached directly (the browser goes through the web's /api): tests read back. */
export const API_URL = `http://localhost:${process.env.E2E_API_PORT ?? 3101}`;

/** The api's answers the tests read back, typed from the contract. */
export type ApiCart = Cart;
export type ApiOrder = Order;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const price = (cents: number) => usd.format(cents / 100);

/**
 * A fixed random value in the page: the 1-in-5 anonymous draw and the sample identity stop
 * deciding the test, and a full load of /cart draws the instant_pay variant from it
 * (0.5 → a, 0.7 → c; docs/requirements.md §4).
 */
export async function fixRandom(page: Page, value = 0.5) {
  await page.addInitScript((fixed) => {
    Math.random = () => fixed;
  }, value);
}

/** A local-storage override on every load (it wins over the flag service; docs/requirements.md §3). */
export async function overrideFeature(page: Page, key: string, value: boolean) {
  await page.addInitScript(([name, stored]) => localStorage.setItem(name, stored), [
    key,
    String(value),
  ] as const);
}

export async function startupDone(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-startup', 'done');
}

/**
 * When the page's first script request started (its module preloads and module scripts, the
 * shop's own /assets/*.js), and when the resource whose URL matches `image` finished, in ms of
 * the page's clock; NaN for one that was not found.
 */
export async function scriptStartAndImageEnd(
  page: Page,
  image: RegExp,
): Promise<{ firstScriptStart: number; imageEnd: number }> {
  return page.evaluate((source) => {
    const pattern = new RegExp(source);
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const scripts = resources.filter((entry) =>
      /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname),
    );
    const found = resources.find((entry) => pattern.test(entry.name));
    return {
      firstScriptStart: scripts.length
        ? Math.min(...scripts.map((entry) => entry.startTime))
        : Number.NaN,
      imageEnd: found ? found.responseEnd : Number.NaN,
    };
  }, image.source);
}

export function productPath(id: number, department: string, edition: 'standard' | 'special') {
  return `/department/${department}/product/${edition === 'special' ? `special-edition-${id}` : id}`;
}

/** Stock of one edition, as the api says now. */
export async function stockOf(
  request: APIRequestContext,
  id: number,
  edition: 'standard' | 'special',
): Promise<number> {
  const response = await request.get(`${API_URL}/products/${id}`);
  expect(response.ok()).toBe(true);
  const product = (await response.json()) as { stock: number; specialEdition: { stock: number } };
  return edition === 'special' ? product.specialEdition.stock : product.stock;
}

/** Reads the api with this page's cookies, so it answers for the page's session. */
export async function apiGet<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(`${API_URL}${path}`);
  expect(response.status(), `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

export const cartCount = (page: Page) => page.getByTestId('cart-count');

/** Opens a product page (a full load, with optional query switches) and adds it to the cart. */
export async function addToCart(
  page: Page,
  product: { id: number; department: string; edition: 'standard' | 'special' },
  quantity: number,
  query = '',
) {
  await page.goto(`${productPath(product.id, product.department, product.edition)}${query}`);
  await startupDone(page);
  const detail = page.getByTestId('product-detail');
  await detail.getByLabel('Quantity').selectOption(String(quantity));
  await detail.getByTestId('add-to-cart').click();
  await expect(detail.getByTestId('add-to-cart-result')).toContainText('Added to cart');
}

export interface AddressInput {
  name: string;
  email: string;
  address1: string;
  city: string;
  postalCode: string;
  country?: string;
}

export const ADDRESS: AddressInput = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  address1: '12 Workshop Lane',
  city: 'Springfield',
  postalCode: '62701',
};

export async function fillAddress(page: Page, address: AddressInput = ADDRESS) {
  const form = page.getByTestId('address-form');
  await form.getByLabel('Full name').fill(address.name);
  await form.getByLabel('E-mail').fill(address.email);
  await form.getByLabel('Address', { exact: true }).fill(address.address1);
  await form.getByLabel('City').fill(address.city);
  await form.getByLabel('Postal code').fill(address.postalCode);
  if (address.country) await form.getByLabel('Country').selectOption(address.country);
}

export const CARDS = {
  succeeds: '4242 4242 4242 4242',
  declines: '4000 0000 0000 0002',
} as const;

/** A card expiry three years ahead, as MM/YY. */
export function futureExpiry(): string {
  return `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
}

export async function fillCard(page: Page, number: string, options: { save?: boolean } = {}) {
  const card = page.getByTestId('card-fields');
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry (MM/YY)').fill(futureExpiry());
  await card.getByLabel('Security code (CVC)').fill('123');
  if (options.save) await card.getByLabel('Save this card for next time').check();
}

/** Waits for the confirmation page and answers the order id in its URL. */
export async function confirmedOrderId(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/order\/ord_[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  const id = await page.getByTestId('order-number').textContent();
  expect(id).toBeTruthy();
  expect(page.url()).toContain(`/order/${id}`);
  return id ?? '';
}

/** Fills in /signup (already open) and sends it: the page asks for the code sent to `email`. */
export async function signUp(
  page: Page,
  account: { name: string; email: string; password: string },
) {
  const form = page.getByTestId('signup-form');
  await form.getByLabel('Full name').fill(account.name);
  await form.getByLabel('E-mail').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(/\/signup-verify$/);
  await expect(page.getByTestId('code-email')).toHaveText(account.email);
}
