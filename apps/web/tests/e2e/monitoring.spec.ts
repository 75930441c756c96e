import { expect, test } from './fixtures';
import {
  captureSentRumEvents,
  drawAnonymously,
  drawWithoutAnonymity,
  firstSentVersionOfView,
  flushOnceStarted,
  flushUntilResourceSent,
  inspectSession,
  intakeTrack,
  leavePage,
  rumSessionId,
  sampleShopperIds,
  startSecondApi,
  type InspectedSession,
} from './monitoring-helpers';
import {
  CARDS,
  addToCart,
  cartCount,
  confirmedOrderId,
  fillAddress,
  fillCard,
  overrideFeature,
  startupDone,
} from './shop-helpers';

// Products of these tests (others buy other products: tests run in parallel and count stock).
const JOURNEY = { id: 39, department: 'bedding', edition: 'standard' } as const;
const DURING_OUTAGE = { id: 38, department: 'bedding', edition: 'standard' } as const;
const WITHOUT_SDK = { id: 40, department: 'bedding', edition: 'standard' } as const;

/** The shop's origin is the one the second api allows (CORS). */
const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
// Beside this run's api; + 7, as 3301 + 5 would be MySQL's 3306.
const SECOND_API_PORT = Number(process.env.E2E_API_PORT ?? 3101) + 7;

test.describe('browser monitoring through the local intake', () => {
  test('a journey is stored with the shopper and flags on every view, action and error; the inspector shows it', async ({
    page,
    request,
    consoleWatch,
  }) => {
    test.setTimeout(90_000);
    consoleWatch.allow(/status of 500/); // the buy-now demo bug's failed order
    await drawWithoutAnonymity(page); // a full load of /cart draws instant_pay = a
    await overrideFeature(page, 'newCheckoutFlow', true);

    await addToCart(page, JOURNEY, 1, '?ffe-buy-now-button=true&ffe-buy-now-button-error=true');
    const sessionId = await rumSessionId(page);
    const userId = await page.evaluate(() => localStorage.getItem('user_id'));

    // The buy-now demo bug: the order attempt fails into the error modal (a monitored error).
    await page.getByTestId('product-detail').getByTestId('buy-now').click();
    await expect(page).toHaveURL(/\/checkout$/);
    await fillAddress(page);
    await fillCard(page, CARDS.succeeds);
    await page.getByTestId('place-order').click();
    const modal = page.getByTestId('error-modal');
    await expect(modal).toContainText('Buy now failed');
    await modal.getByRole('button', { name: 'Close' }).click();

    // The ordinary way: the cart, checkout, an order.
    await page.goto('/cart');
    await startupDone(page);
    await page.getByRole('link', { name: 'Checkout' }).click();
    await fillAddress(page);
    await fillCard(page, CARDS.succeeds);
    await page.getByTestId('place-order').click();
    const orderId = await confirmedOrderId(page);
    await leavePage(page);

    let stored: InspectedSession | null = null;
    const titles = () => stored?.timeline.map((entry) => `${entry.kind}: ${entry.title}`) ?? [];
    await expect
      .poll(
        async () => {
          stored = await inspectSession(request, sessionId);
          return titles();
        },
        { timeout: 30_000 },
      )
      .toEqual(
        expect.arrayContaining([
          'action: add to cart',
          'action: begin checkout',
          'error: Buy now failed: the order could not be placed',
          'action: place order',
          expect.stringMatching(/^view: \/order\//),
        ]),
      );
    // A view's first version can arrive before the one carrying the flags the page recorded
    // again for it (flag-memory.ts): wait for the exit beacon's last versions too.
    const withoutFlags = () =>
      (stored?.timeline ?? [])
        .filter((entry) => ['view', 'action', 'error'].includes(entry.kind))
        .filter((entry) => Object.keys(entry.featureFlags ?? {}).length === 0)
        .map((entry) => `${entry.kind} ${entry.title}`);
    await expect
      .poll(
        async () => {
          stored = await inspectSession(request, sessionId);
          return withoutFlags();
        },
        { timeout: 15_000 },
      )
      .toEqual([]);
    const session = stored!;
    expect(session.session).toMatchObject({
      anonymous: false,
      shopper: { id: userId },
      flags: expect.objectContaining({ instant_pay: ['a'], personal_recommendations: ['1'] }),
    });
    const events = session.timeline.filter((entry) =>
      ['view', 'action', 'error'].includes(entry.kind),
    );
    for (const entry of events) {
      expect(entry.usrId, `usr.id of ${entry.kind} ${entry.title}`).toBe(userId);
      expect(
        Object.keys(entry.featureFlags ?? {}).length,
        `feature_flags of ${entry.kind} ${entry.title}`,
      ).toBeGreaterThan(0);
    }
    const action = (title: string) => session.timeline.find((entry) => entry.title === title);
    expect(action('add to cart')?.featureFlags).toMatchObject({ personal_recommendations: 1 });
    expect(action('add to cart')?.detail).toMatchObject({
      product_id: JOURNEY.id,
      currency: 'USD',
    });
    expect(action('place order')?.featureFlags).toMatchObject({ instant_pay: 'a' });
    expect(action('place order')?.detail).toMatchObject({
      order_id: orderId,
      instant_pay_variant: 'a',
      amount_cents: expect.any(Number),
    });

    // The inspector lists the session and shows its timeline.
    const inspector = await page.context().newPage();
    await inspector.goto('/inspector?limit=500');
    const row = inspector.locator(`tr[data-session-id="${sessionId}"]`);
    await expect(row).toContainText(session.session.shopper?.name ?? '');
    await expect(row).toContainText('instant_pay: a');
    const conversion = inspector.getByTestId('conversion-chart').locator('[data-label="a"]');
    await expect(conversion).toHaveAttribute('data-value', /^(0\.\d+|1)$/);
    await row.getByRole('link').click();
    await expect(inspector.getByTestId('session-shopper')).toContainText(userId ?? '');
    const timeline = inspector.getByTestId('timeline');
    await expect(timeline).toContainText('place order');
    await expect(timeline).toContainText('Buy now failed');
  });

  test('the first view event a session sends already carries the stored shopper, as do its early resources', async ({
    page,
  }) => {
    await drawWithoutAnonymity(page);
    const sent = captureSentRumEvents(page);
    await page.goto('/home');
    const { sessionId, viewId } = await flushOnceStarted(page);
    const userId = await page.evaluate(() => localStorage.getItem('user_id'));
    expect(userId, 'stored identity').toMatch(/\S/);

    const first = await firstSentVersionOfView(sent, viewId);
    expect(first.usr?.id, `usr.id of view version ${first._dd?.document_version}`).toBe(userId);
    await flushUntilResourceSent(page, sent, sessionId);
    const ofSession = sent.filter(
      (event) => event.session?.id === sessionId && event.type !== 'telemetry',
    );
    for (const event of ofSession) {
      expect(event.usr?.id, `usr.id of ${event.type}`).toBe(userId);
    }
  });

  test('an anonymous start sends no usr.id, neither on its first view event nor on its early resources', async ({
    page,
  }) => {
    await drawAnonymously(page);
    const sent = captureSentRumEvents(page);
    await page.goto('/home');
    const { sessionId, viewId } = await flushOnceStarted(page);
    // An identity is stored all the same: the start itself is anonymous.
    expect(await page.evaluate(() => localStorage.getItem('user_id')), 'stored identity').toMatch(
      /\S/,
    );

    const first = await firstSentVersionOfView(sent, viewId);
    expect(first.usr?.id, `usr.id of view version ${first._dd?.document_version}`).toBeUndefined();
    await flushUntilResourceSent(page, sent, sessionId);
    const ofSession = sent.filter(
      (event) => event.session?.id === sessionId && event.type !== 'telemetry',
    );
    for (const event of ofSession) {
      expect(event.usr?.id, `usr.id of ${event.type}`).toBeUndefined();
    }
  });

  test('over 50 fresh sessions the anonymous share is 5–40 % and every shopper is a sample shopper', async ({
    browser,
    request,
  }) => {
    // ~1 min on an idle 2-CPU machine; minutes when the machine is busy.
    test.setTimeout(300_000);
    const sessions: { id: string; userId: string | null }[] = [];
    const consoleErrors: string[] = [];
    const visit = async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.goto('/home', { waitUntil: 'domcontentloaded' });
      const id = await rumSessionId(page); // the user is set or cleared by then
      const user = await page.evaluate(() => window.DD_RUM?.getUser() ?? {});
      await leavePage(page);
      // The exit flush is a beacon the browser may still be sending: closing the context at once
      // can cancel it on a busy machine, so wait until the intake has the session.
      await expect
        .poll(async () => (await inspectSession(request, id)) !== null, { timeout: 30_000 })
        .toBe(true);
      await context.close();
      sessions.push({ id, userId: typeof user.id === 'string' ? user.id : null });
    };
    for (let started = 0; started < 50; started += 3) {
      await Promise.all(Array.from({ length: Math.min(3, 50 - started) }, visit));
    }
    expect(consoleErrors).toEqual([]);

    // The api knows each session, with the user its browser had (or none).
    let stored: (InspectedSession | null)[] = [];
    await expect
      .poll(
        async () => {
          stored = await Promise.all(
            sessions.map((session) => inspectSession(request, session.id)),
          );
          return stored.map((session) =>
            session ? (session.session.shopper?.id ?? null) : 'missing',
          );
        },
        { timeout: 60_000 },
      )
      .toEqual(sessions.map((session) => session.userId));

    const anonymous = stored.filter((session) => session?.session.anonymous).length;
    const share = anonymous / sessions.length;
    const measured = `${anonymous} of ${sessions.length} (${Math.round(share * 100)} %)`;
    test.info().annotations.push({ type: 'anonymous share', description: measured });
    console.log(`anonymous sessions: ${measured}`);
    expect(share).toBeGreaterThanOrEqual(0.05);
    expect(share).toBeLessThanOrEqual(0.4);
    const known = sampleShopperIds();
    for (const session of sessions) {
      if (session.userId !== null) expect(known.has(session.userId), session.userId).toBe(true);
    }
  });

  test('with webview=true no event reaches the intake', async ({ page }) => {
    const tracks: string[] = [];
    page.context().on('request', (request) => {
      const track = request.url().includes('/intake?') ? intakeTrack(request.url()) : null;
      if (track) tracks.push(track);
    });
    await addToCart(page, WITHOUT_SDK, 1, '?webview=true');
    await page.getByTestId('cart-link').click();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    expect(await page.evaluate(() => window.DD_RUM)).toBeUndefined();
    await leavePage(page);
    expect(tracks).toEqual([]);
  });

  test('with the SDK chunk blocked the alert shows and the shop still works', async ({
    page,
    consoleWatch,
  }) => {
    consoleWatch.allow(/ERR_BLOCKED_BY_CLIENT/);
    await page.route(/datadog-rum/, (route) => route.abort('blockedbyclient'));
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await addToCart(page, WITHOUT_SDK, 2);
    expect(alerts).toEqual(['Please disable your adblocker and refresh the page.']);
    await page.getByTestId('cart-link').click();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await expect(cartCount(page)).toHaveText('2');
  });

  test('with the intake answering 500 for a while the shop still works and the events arrive once it recovers', async ({
    page,
    request,
    consoleWatch,
  }) => {
    consoleWatch.allow(/status of 500/);
    let failing = true;
    let refused = 0;
    await page.route(/\/intake\?ddforward=%2Fapi%2Fv2%2Frum/, async (route) => {
      if (!failing) return route.continue();
      refused += 1;
      // A cross-origin answer needs CORS, or the SDK sees a network error (and does not retry).
      await route.fulfill({
        status: 500,
        headers: { 'access-control-allow-origin': '*' },
        contentType: 'application/json',
        body: '{"error":{"code":"INTERNAL","message":"Internal Server Error"}}',
      });
    });
    await drawWithoutAnonymity(page);

    await addToCart(page, DURING_OUTAGE, 1);
    const sessionId = await rumSessionId(page);
    // More than one batch (50 events) of custom actions, so the SDK sends while the intake fails.
    await page.evaluate(() => {
      for (let i = 0; i < 60; i += 1) window.DD_RUM?.addAction('outage probe', { i });
    });
    await expect.poll(() => refused, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    // The shop works meanwhile (client-side: a full load would drop the SDK's retry queue).
    await page.getByTestId('cart-link').click();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await expect(cartCount(page)).toHaveText('1');

    failing = false; // the intake recovers: the SDK's retries get through
    await expect
      .poll(
        async () => {
          const stored = await inspectSession(request, sessionId);
          const titles = stored?.timeline.map((entry) => entry.title) ?? [];
          return {
            probes: titles.filter((title) => title === 'outage probe').length,
            addToCart: titles.includes('add to cart'),
          };
        },
        { timeout: 30_000 },
      )
      .toEqual({ probes: 60, addToCart: true });
  });

  test("an api call carries traceparent and the api's log line for it has the same trace id", async ({
    page,
  }) => {
    const api = await startSecondApi(SECOND_API_PORT, `http://localhost:${WEB_PORT}`);
    try {
      // The stored backend override sends this page's shop calls to the second api.
      await page.addInitScript((url) => localStorage.setItem('backend_url_override', url), api.url);
      // Calls made before the monitoring SDK has started carry no trace headers (a busy machine
      // can start it after the page's first calls): the add to cart comes after its start.
      await page.goto('/department/lighting/product/53');
      await startupDone(page);
      const traced = page.waitForRequest(
        (call) => call.url().startsWith(api.url) && call.headers()['traceparent'] !== undefined,
      );
      const detail = page.getByTestId('product-detail');
      await detail.getByTestId('add-to-cart').click();
      await expect(detail.getByTestId('add-to-cart-result')).toContainText('Added to cart');
      const call = await traced;
      const headers = call.headers();
      const traceId = headers['traceparent']!.split('-')[1];
      const path = new URL(call.url()).pathname;
      await expect
        .poll(() =>
          api
            .logLines()
            .filter(
              (line) =>
                line.trace_id === traceId &&
                (line.req as { url?: string } | undefined)?.url?.split('?')[0] === path,
            )
            .map((line) => (line.dd as { trace_id?: string }).trace_id),
        )
        .toEqual([headers['x-datadog-trace-id']]);
      await page.close();
    } finally {
      await api.stop();
    }
  });
});
