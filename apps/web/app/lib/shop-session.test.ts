import { describe, expect, it } from 'vitest';
import { createCartStore } from './cart-store';
import { ApiError } from './api-client';
import type { ShopApi } from './shop-api';
import { createShopClient } from './shop-session';
import type { Cart } from '@showroom/contracts/cart';
import type { SessionView } from '@showroom/contracts/session';

const session = (shopperId: string | null, itemCount = 0): SessionView => ({
  shopper:
    shopperId === null
      ? null
      : {
          id: shopperId,
          list: 'standard',
          name: 'Ada',
          email: 'ada@example.com',
          team: 'sales',
          useDiscount: false,
          useNewCheckoutFlow: false,
          loyaltyMember: false,
          tier: 'none',
        },
  account: null,
  discountRate: 0,
  cart: { itemCount, lineCount: itemCount > 0 ? 1 : 0 },
});

/** A session signed in to an account: the account is the persona. */
const accountSession = (itemCount = 0): SessionView => ({
  shopper: {
    id: 'acc_1',
    list: 'account',
    name: 'Grace',
    email: 'grace@example.com',
    team: 'sales',
    useDiscount: false,
    useNewCheckoutFlow: false,
    loyaltyMember: true,
    tier: 'silver',
  },
  account: { id: 'acc_1', email: 'grace@example.com', name: 'Grace' },
  discountRate: 0,
  cart: { itemCount, lineCount: itemCount > 0 ? 1 : 0 },
});

const cart = (itemCount: number) => ({ lines: [], itemCount }) as unknown as Cart;

function fakeApi(options: { stored?: string | null; bindFails?: number; signedIn?: boolean } = {}) {
  const calls: string[] = [];
  let bound = options.stored ?? null;
  const signedIn = options.signedIn ?? false;
  let items = 3;
  const api = {
    getSession: () => {
      calls.push('GET /session');
      return Promise.resolve(signedIn ? accountSession(7) : session(bound, items));
    },
    bindShopper: (id: string) => {
      calls.push(`PUT /session/shopper ${id}`);
      if (options.bindFails) {
        return Promise.reject(
          new ApiError(
            options.bindFails,
            options.bindFails === 404 ? 'SHOPPER_NOT_FOUND' : 'INTERNAL',
            'bind failed',
          ),
        );
      }
      bound = id;
      return Promise.resolve(session(id, items));
    },
    addItem: () => {
      calls.push('POST /cart/items');
      return Promise.resolve(cart(5));
    },
    getCart: () => {
      calls.push('GET /cart');
      return Promise.resolve(cart(5));
    },
    placeOrder: () => {
      calls.push('POST /checkout/orders');
      items = 0;
      return Promise.resolve({ id: 'ord_1' });
    },
  } as unknown as ShopApi;
  return { api, calls };
}

describe('the shop client', () => {
  it('asks for the session first, binds the shopper, then makes the call', async () => {
    const { api, calls } = fakeApi();
    const store = createCartStore();
    const client = createShopClient(api, 'abc123', store);
    await Promise.all([
      client.addItem({ productId: 1, edition: 'standard', quantity: 1 }),
      client.getCart(),
    ]);
    expect(calls.slice(0, 2)).toEqual(['GET /session', 'PUT /session/shopper abc123']);
    expect(calls.slice(2).sort()).toEqual(['GET /cart', 'POST /cart/items']);
    expect(store.getSnapshot().itemCount).toBe(5);
  });

  it('does not bind again a session already bound to the shopper, nor an anonymous one', async () => {
    const bound = fakeApi({ stored: 'abc123' });
    await createShopClient(bound.api, 'abc123', createCartStore()).ready();
    expect(bound.calls).toEqual(['GET /session']);
    const anonymous = fakeApi();
    await createShopClient(anonymous.api, null, createCartStore()).ready();
    expect(anonymous.calls).toEqual(['GET /session']);
  });

  it('takes the cart count from the session and empties it after an order', async () => {
    const store = createCartStore();
    const client = createShopClient(fakeApi().api, null, store);
    await client.ready();
    expect(store.getSnapshot().itemCount).toBe(3);
    await client.placeOrder({} as never, { idempotencyKey: 'k' });
    expect(store.getSnapshot().itemCount).toBe(0);
    // The session is read again (points, tier) and still says the cart is empty.
    await client.ready();
    expect(store.getSnapshot().itemCount).toBe(0);
  });

  it('shops anonymously when the api does not know the shopper', async () => {
    const warnings: string[] = [];
    const { api } = fakeApi({ bindFails: 404 });
    const client = createShopClient(api, 'nobody', createCartStore(), (message) =>
      warnings.push(message),
    );
    await expect(client.ready()).resolves.toMatchObject({ shopper: null });
    expect(warnings).toHaveLength(1);
  });

  it('never binds a signed-in session to the sample shopper', async () => {
    const { api, calls } = fakeApi({ signedIn: true });
    const remembered: SessionView[] = [];
    const store = createCartStore();
    const view = await createShopClient(api, 'abc123', store, undefined, (seen) =>
      remembered.push(seen),
    ).ready();
    expect(calls).toEqual(['GET /session']);
    expect(view.account?.id).toBe('acc_1');
    expect(remembered.map((seen) => seen.shopper?.list)).toEqual(['account']);
    expect(store.getSnapshot().itemCount).toBe(7);
  });

  it('adopts a session another call answered, binding the sample shopper when it is not an account', async () => {
    const { api, calls } = fakeApi({ stored: 'abc123' });
    const remembered: (string | undefined)[] = [];
    const store = createCartStore();
    const client = createShopClient(api, 'abc123', store, undefined, (seen) =>
      remembered.push(seen.shopper?.list),
    );
    await client.ready();
    await client.adoptSession(accountSession(7));
    expect(store.getSnapshot().itemCount).toBe(7);
    // Later calls use the adopted session without opening another.
    await client.getCart();
    await client.adoptSession(session(null, 0));
    expect(calls).toEqual(['GET /session', 'GET /cart', 'PUT /session/shopper abc123']);
    expect(remembered).toEqual(['standard', 'account', 'standard']);
  });

  it('refreshSession drops the cached session', async () => {
    const { api, calls } = fakeApi({ stored: 'abc123' });
    const client = createShopClient(api, 'abc123', createCartStore());
    await client.ready();
    await client.refreshSession();
    await client.ready();
    expect(calls).toEqual(['GET /session', 'GET /session']);
  });

  it('retries opening the session after a failure', async () => {
    const { api, calls } = fakeApi({ bindFails: 500 });
    const client = createShopClient(api, 'abc123', createCartStore());
    await expect(client.ready()).rejects.toThrow('bind failed');
    await expect(client.ready()).rejects.toThrow('bind failed');
    expect(calls.filter((call) => call === 'GET /session')).toHaveLength(2);
  });
});

describe('the cart store', () => {
  it('tells its listeners about changes only', () => {
    const store = createCartStore();
    let heard = 0;
    const stop = store.subscribe(() => (heard += 1));
    store.setItemCount(2);
    store.setItemCount(2);
    store.setCountry('JP');
    stop();
    store.setItemCount(4);
    expect(heard).toBe(2);
    expect(store.getSnapshot()).toEqual({ itemCount: 4, country: 'JP' });
  });
});
