import { describe, expect, it } from 'vitest';
import type { SessionView } from '@showroom/contracts/session';
import type { AccountApi } from './account-api';
import { createAccountClient } from './account-session';
import { createCartStore } from './cart-store';
import type { ShopApi } from './shop-api';
import { createShopClient } from './shop-session';

const persona = (id: string, list: 'standard' | 'account') => ({
  id,
  list,
  name: list === 'account' ? 'Grace' : 'Ada',
  email: 'someone@example.com',
  team: 'sales',
  useDiscount: false,
  useNewCheckoutFlow: false,
  loyaltyMember: false,
  tier: 'none' as const,
});

const sampleSession = (id: string | null, itemCount: number): SessionView => ({
  shopper: id === null ? null : persona(id, 'standard'),
  account: null,
  discountRate: 0,
  cart: { itemCount, lineCount: itemCount > 0 ? 1 : 0 },
});

const accountSession = (itemCount: number): SessionView => ({
  shopper: persona('acc_1', 'account'),
  account: { id: 'acc_1', email: 'someone@example.com', name: 'Grace' },
  discountRate: 0,
  cart: { itemCount, lineCount: itemCount > 0 ? 1 : 0 },
});

/** A shop whose session the account calls switch, as the api does. */
function fakeShop() {
  const calls: string[] = [];
  let current: SessionView = sampleSession('abc123', 2);
  const shopApi = {
    getSession: () => {
      calls.push('GET /session');
      return Promise.resolve(current);
    },
    bindShopper: (id: string) => {
      calls.push(`PUT /session/shopper ${id}`);
      current = sampleSession(id, current.cart.itemCount);
      return Promise.resolve(current);
    },
    getCart: () => {
      calls.push('GET /cart');
      return Promise.resolve({ lines: [], itemCount: current.cart.itemCount });
    },
  } as unknown as ShopApi;
  const accountApi = {
    signIn: () => {
      calls.push('POST /session/sign-in');
      current = accountSession(5); // the browser's 2 items merged into the account's 3
      return Promise.resolve(current);
    },
    signOut: () => {
      calls.push('POST /session/sign-out');
      current = sampleSession(null, 0);
      return Promise.resolve(current);
    },
    verifySignUp: () => {
      calls.push('POST /accounts/verification');
      current = accountSession(2);
      return Promise.resolve(current);
    },
    joinLoyalty: () => {
      calls.push('POST /loyalty');
      return Promise.resolve({ id: 'lm_1' });
    },
    updateProfile: () => {
      calls.push('PATCH /profile');
      return Promise.resolve({ profile: {}, verification: null });
    },
  } as unknown as AccountApi;
  const store = createCartStore();
  const remembered: (string | null)[] = [];
  const shop = createShopClient(shopApi, 'abc123', store, undefined, (view) =>
    remembered.push(view.shopper?.list ?? null),
  );
  return { calls, store, remembered, shop, client: createAccountClient(accountApi, shop) };
}

describe('the account client', () => {
  it('signs in and out: the new sessions become the page’s, persona and cart count follow', async () => {
    const { calls, store, remembered, shop, client } = fakeShop();
    await client.signIn({ email: 'someone@example.com', password: 'long enough' });
    expect(store.getSnapshot().itemCount).toBe(5);
    await shop.getCart(); // on the signed-in session, without opening another
    await client.signOut();
    expect(calls).toEqual([
      'GET /session',
      'POST /session/sign-in',
      'GET /cart',
      'POST /session/sign-out',
      'PUT /session/shopper abc123', // the anonymous session is the sample shopper's again
    ]);
    expect(remembered).toEqual(['standard', 'account', 'standard']);
    expect(store.getSnapshot().itemCount).toBe(0);
  });

  it('a verified sign-up signs the page in without binding the sample shopper', async () => {
    const { calls, remembered, client } = fakeShop();
    const view = await client.verifySignUp('123456');
    expect(view.account?.id).toBe('acc_1');
    expect(calls).toEqual(['GET /session', 'POST /accounts/verification']);
    expect(remembered).toEqual(['standard', 'account']);
  });

  it('reads the session again after joining the loyalty programme or editing the profile', async () => {
    const { calls, shop, client } = fakeShop();
    await client.joinLoyalty({ consent: true });
    await shop.ready();
    await client.updateProfile({ name: 'Ada' });
    await shop.ready();
    expect(calls).toEqual([
      'GET /session',
      'POST /loyalty',
      'GET /session',
      'PATCH /profile',
      'GET /session',
    ]);
  });
});
