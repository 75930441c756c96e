import { expect, test } from './fixtures';
import { startupDone } from './shop-helpers';

// What a document carries: one deployment profile plus a small index (not every profile), and
// below-the-fold data streamed after the first byte.

/** Every placeholder client token in a text (each profile has its own). */
const clientTokens = (text: string) => [...new Set(text.match(/pub0{20,}\d+/g) ?? [])];
const LOCAL_TOKEN = 'pub00000000000000000000000000000017';
const AP2_TOKEN = 'pub00000000000000000000000000000003';

test.describe('the deployment profile in the document', () => {
  test('a document carries the predicted profile only: the one of the host or of the ship parameter', async ({
    request,
  }) => {
    const home = await (await request.get('/')).text();
    expect(clientTokens(home)).toEqual([LOCAL_TOKEN]);
    // The index still names every profile, so the browser can choose a stored one.
    expect(home).toContain('ap2');
    expect(home).not.toContain('api.ap2.showroom.example.com');

    const shipped = await (await request.get('/department/chairs?ship=ap2')).text();
    expect(clientTokens(shipped)).toEqual([AP2_TOKEN]);
  });

  test('a first visit uses the profile in the document without asking for another', async ({
    page,
  }) => {
    const profileRequests: string[] = [];
    page.on('request', (call) => {
      if (new URL(call.url()).pathname.startsWith('/profiles/')) profileRequests.push(call.url());
    });
    await page.goto('/demo');
    await startupDone(page);
    await expect(page.getByTestId('demo-profile')).toHaveText('local');
    expect(profileRequests).toEqual([]);
  });

  test('a stored choice of another profile is fetched from the web server', async ({
    page,
    consoleWatch,
  }) => {
    // The dda profile names hosts that are not ours: nothing may leave this machine.
    await page.route(
      (url) => !['localhost', '127.0.0.1'].includes(url.hostname),
      (route) => route.abort('blockedbyclient'),
    );
    consoleWatch.allow(
      /ERR_BLOCKED_BY_CLIENT|Failed to initialize feature flags provider|Failed to fetch/,
    );
    await page.addInitScript(() => {
      localStorage.setItem('rum_config_key', 'dda');
      localStorage.setItem('rum_config_host', location.host);
    });
    const fetched = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/profiles/dda.json',
    );
    await page.goto('/demo');
    const response = await fetched;
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ ship: 'dda', clientToken: expect.any(String) });
    await expect(page.getByTestId('demo-profile')).toHaveText('dda');
  });

  test('an unknown profile key answers 404 with the error shape', async ({ request }) => {
    const response = await request.get('/profiles/no-such-profile.json');
    expect(response.status()).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No deployment profile "no-such-profile"' },
    });
  });
});

test.describe('deferred data', () => {
  // The placeholder-first shell is pinned by app/components/recommendations.test.tsx; when the
  // api is quick the stream may already hold the recommendations in its first bytes.
  test('product recommendations arrive in the same document stream and show', async ({
    page,
    request,
  }) => {
    const path = '/department/sofas/product/30';
    const html = await (await request.get(path)).text();
    expect(html).toContain('You may also like');

    await page.goto(path);
    const section = page.getByRole('region', { name: /You may also like/ });
    await expect(section.getByTestId('product-card').first()).toBeVisible();
    await expect(page.getByTestId('recommendations-pending')).toHaveCount(0);
  });
});
