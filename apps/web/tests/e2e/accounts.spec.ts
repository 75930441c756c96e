import type { BrowserContext, Page } from '@playwright/test';
import { loyaltyPointsFor, loyaltyTierFor, type OutboxList } from '@showroom/contracts/accounts';
import type { SessionView } from '@showroom/contracts/session';
import { expect, test } from './fixtures';
import {
  drawWithoutAnonymity,
  inspectSession,
  leavePage,
  rumSessionId,
  type InspectedSession,
} from './monitoring-helpers';
import {
  API_URL,
  addToCart,
  apiGet,
  confirmedOrderId,
  futureExpiry,
  overrideFeature,
  signUp,
  startupDone,
  type ApiCart,
  type ApiOrder,
} from './shop-helpers';

// Products of these tests (others buy other products: tests run in parallel and count stock).
const JOURNEY = { id: 48, department: 'bedding', edition: 'standard' } as const;
const GOLD_ORDER = { id: 33, department: 'sofas', edition: 'standard' } as const;
const PASSWORD = 'a demo password of some length';

const uniqueEmail = (who: string) =>
  `${who}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/** A browser of its own: monitoring always draws a user, payments and loyalty are on. */
async function shopperPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await drawWithoutAnonymity(page);
  await overrideFeature(page, 'showPayments', true);
  await overrideFeature(page, 'showLoyaltyProgram', true);
  await overrideFeature(page, 'newCheckoutFlow', true);
  return page;
}

test.describe('accounts, profile, saved payment and loyalty: one persona (decision 008)', () => {
  test('sign up with the code from the outbox, edit the profile, save a card, join, order; sign in elsewhere to the same data; monitoring carries the account and its tier', async ({
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const email = uniqueEmail('ada');
    const context = await browser.newContext();
    const page = await shopperPage(context);

    // Sign up.
    await page.goto('/signup');
    await startupDone(page);
    await expect(page.getByTestId('password-rule')).toContainText('10 characters');
    await signUp(page, { name: 'Ada Lovelace', email, password: PASSWORD });

    // The code, read where a presenter reads it: the outbox page, in another tab.
    const outbox = await context.newPage();
    await outbox.goto('/outbox');
    const message = outbox.getByTestId('outbox-message').first();
    await expect(message.getByTestId('outbox-to')).toHaveText(email);
    const code = ((await message.getByTestId('outbox-code').textContent()) ?? '').trim();
    expect(code).toMatch(/^\d{6}$/);
    await outbox.close();

    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/verification$/);
    await expect(page.getByTestId('verified-email')).toHaveText(email);
    await expect(page.getByTestId('account-link')).toHaveText('Ada Lovelace');
    const accountId = (await apiGet<SessionView>(page, '/session')).account?.id ?? '';
    expect(accountId).toMatch(/^acc_/);
    const rumSession = await rumSessionId(page);

    // Profile: a new name and a shipping address.
    await page.goto('/profile-edit');
    const edit = page.getByTestId('profile-edit-form');
    await expect(edit.getByLabel('E-mail')).toHaveValue(email);
    await edit.getByLabel('Full name').fill('Ada King');
    await edit.getByLabel('Address', { exact: true }).fill('1 Analytical Row');
    await edit.getByLabel('City').fill('London');
    await edit.getByLabel('Postal code').fill('N1 9GU');
    await edit.getByLabel('Country').selectOption('GB');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('profile-saved')).toBeVisible();

    // A saved card.
    await page.goto('/profile-payment');
    const add = page.getByTestId('add-card-form');
    await add.getByLabel('Card number').fill('4242 4242 4242 4242');
    await add.getByLabel('Expiry (MM/YY)').fill(futureExpiry());
    await add.getByLabel('Security code (CVC)').fill('123');
    await add.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByTestId('saved-card')).toHaveCount(1);
    await expect(page.getByTestId('default-card-badge')).toHaveText('Default');

    // The loyalty programme.
    await page.goto('/loyalty-signup');
    await page.getByLabel('I agree to the programme terms').check();
    await page.getByRole('button', { name: 'Join' }).click();
    await expect(page.getByTestId('loyalty-joined')).toBeVisible();

    // An order: the checkout is filled from the profile and pays with the default saved card.
    await addToCart(page, JOURNEY, 1);
    await page.goto('/checkout');
    await startupDone(page);
    const address = page.getByTestId('address-form');
    await expect(address.getByLabel('Full name')).toHaveValue('Ada King');
    await expect(address.getByLabel('E-mail')).toHaveValue(email);
    await expect(address.getByLabel('Address', { exact: true })).toHaveValue('1 Analytical Row');
    await expect(page.getByTestId('saved-cards').getByLabel(/Visa •••• 4242/)).toBeChecked();
    await page.getByTestId('place-order').click();
    const orderId = await confirmedOrderId(page);
    const order = await apiGet<ApiOrder>(page, `/orders/${orderId}`);
    expect(order.shipping).toMatchObject({ name: 'Ada King', country: 'GB' });
    const points = loyaltyPointsFor(order.totalCents);
    const tier = loyaltyTierFor(points);

    // The profile shows the points and the tier.
    await page.goto('/profile');
    await expect(page.getByTestId('profile-name')).toHaveText('Ada King');
    await expect(page.getByTestId('loyalty-points')).toHaveText(String(points));
    await expect(page.getByTestId('loyalty-tier')).toContainText(tier, { ignoreCase: true });
    await leavePage(page);

    // The stored monitoring events of that session carry the account and its tier.
    let stored: InspectedSession | null = null;
    await expect
      .poll(
        async () => {
          stored = await inspectSession(request, rumSession);
          return stored?.timeline.map((entry) => `${entry.kind}: ${entry.title}`) ?? [];
        },
        { timeout: 30_000 },
      )
      .toEqual(
        expect.arrayContaining([
          'action: loyalty sign-up',
          'action: place order',
          'view: /profile',
        ]),
      );
    const timeline = stored!.timeline;
    const entry = (kind: string, title: string) =>
      timeline.filter((item) => item.kind === kind && item.title === title).at(-1);
    const account = { id: accountId, email, account: true, loyaltyMember: true };
    expect(entry('action', 'loyalty sign-up')?.usr).toMatchObject({ id: accountId });
    expect(entry('action', 'place order')?.usr).toMatchObject({ ...account, tier: 'bronze' });
    expect(entry('view', '/profile')?.usr).toMatchObject({ ...account, name: 'Ada King', tier });
    await context.close();

    // Signing in from a fresh browser reaches the same data.
    const elsewhere = await browser.newContext();
    const second = await shopperPage(elsewhere);
    await second.goto('/signin?next=/profile');
    await startupDone(second);
    const signin = second.getByTestId('signin-form');
    await signin.getByLabel('E-mail').fill(email);
    await signin.getByLabel('Password').fill(PASSWORD);
    await signin.getByRole('button', { name: 'Sign in' }).click();
    await expect(second).toHaveURL(/\/profile$/);
    await expect(second.getByTestId('profile-name')).toHaveText('Ada King');
    await expect(second.getByTestId('profile-email')).toHaveText(email);
    await expect(second.getByTestId('loyalty-points')).toHaveText(String(points));
    await expect(second.getByTestId('loyalty-tier')).toContainText(tier, { ignoreCase: true });
    await expect(second.getByTestId('order-row')).toHaveCount(1);
    await expect(second.getByTestId('saved-card')).toHaveCount(1);
    await elsewhere.close();
  });

  test('a flag rule on tier: a gold member gets free shipping where a new shopper does not, in the browser and the api', async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const goldContext = await browser.newContext();
    const gold = await shopperPage(goldContext);
    await gold.goto('/');
    await startupDone(gold);

    // An account that reaches gold, made through the api with the browser's own cookies.
    const api = gold.request;
    const email = uniqueEmail('gold');
    const post = async (path: string, data: object) => {
      const response = await api.post(`${API_URL}${path}`, { data });
      expect(response.ok(), `POST ${path}: ${await response.text()}`).toBe(true);
      return response;
    };
    await post('/accounts', { name: 'Golda Member', email, password: PASSWORD });
    const outbox = (await (await api.get(`${API_URL}/outbox`)).json()) as OutboxList;
    const code = /\b(\d{6})\b/.exec(outbox.messages[0]?.text ?? '')?.[1] ?? '';
    await post('/accounts/verification', { code });
    await post('/loyalty', { consent: true });
    await post('/cart/items', { productId: GOLD_ORDER.id, edition: GOLD_ORDER.edition });
    await post('/checkout/orders', {
      shipping: {
        name: 'Golda Member',
        email,
        address1: '1 Gold Street',
        city: 'Springfield',
        postalCode: '62701',
        country: 'US',
      },
      payment: {
        type: 'card',
        card: { number: '4242 4242 4242 4242', expiry: futureExpiry(), cvc: '123' },
      },
    });
    expect((await apiGet<SessionView>(gold, '/session')).shopper).toMatchObject({
      list: 'account',
      tier: 'gold',
    });

    const fresh = await shopperPage(await browser.newContext());
    const variantIn = async (page: Page) => {
      await page.goto('/cart');
      await startupDone(page);
      await expect(page.locator('html')).toHaveAttribute('data-flags', 'ready');
      let variant: string | undefined;
      await expect
        .poll(async () => {
          variant = await page.evaluate(
            () =>
              window.showroomFlags?.getNumberDetails('free_shipping_threshold_cents', -1).variant,
          );
          return variant;
        })
        .toBeTruthy();
      return { page, variant };
    };
    // The gold member's flag context follows the persona once the page's session answers.
    await expect
      .poll(async () => (await variantIn(gold)).variant, { timeout: 20_000 })
      .toBe('free');
    const newcomer = await variantIn(fresh);
    expect(['standard', 'reduced']).toContain(newcomer.variant);

    // The api's own evaluation agrees: the gold member's cart ships free from the first cent.
    await post('/cart/items', { productId: JOURNEY.id, edition: JOURNEY.edition });
    expect((await apiGet<ApiCart>(gold, '/cart')).freeShippingThresholdCents).toBe(0);
    await fresh.request.post(`${API_URL}/cart/items`, {
      data: { productId: JOURNEY.id, edition: JOURNEY.edition },
    });
    expect((await apiGet<ApiCart>(fresh, '/cart')).freeShippingThresholdCents).toBeGreaterThan(0);
    await goldContext.close();
  });

  test('a form keeps what was typed on an error and after a reload, never the password', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/status of 401/);
    const email = uniqueEmail('nobody');
    await page.goto('/signin');
    await startupDone(page);
    const form = page.getByTestId('signin-form');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password').fill('not the password at all');
    await form.getByLabel('Password').press('Enter');
    await expect(page.getByTestId('form-error')).toContainText('not right');
    await expect(form.getByLabel('E-mail')).toHaveValue(email);

    await page.reload();
    await startupDone(page);
    await expect(form.getByLabel('E-mail')).toHaveValue(email);
    await expect(form.getByLabel('Password')).toHaveValue('');
  });
});
