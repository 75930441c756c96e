import { useMemo } from 'react';
import type {
  JoinLoyaltyBody,
  SignInBody,
  SignUpBody,
  UpdateProfileBody,
} from '@showroom/contracts/accounts';
import { createAccountApi, type AccountApi, type CodePurpose } from './account-api';
import { apiClientOf, useShopClient, type ShopClient } from './shop-session';
import { useShopQuery, type ShopQueryResult } from './use-shop-query';

/** What account calls need of the page's shop client: its session. */
export type SessionControl = Pick<ShopClient, 'ready' | 'adoptSession' | 'refreshSession'>;

/**
 * The account calls as pages use them, on the page's shop session (shop-session.ts): each
 * waits for the session to be ready; sign-in, verification and sign-out make the session they
 * answer this page's (persona, navbar cart count); a change of the persona — profile, e-mail,
 * loyalty — reads `GET /session` again so monitoring and flags follow it (decision 008).
 */
export function createAccountClient(api: AccountApi, shop: SessionControl) {
  const { ready } = shop;
  /** After a change that succeeded: if the re-read fails, the next call opens the session. */
  const refreshQuietly = () => {
    shop.refreshSession().catch(() => {});
  };
  return {
    /** Reads `GET /session` again (a persona the page found stale). */
    refreshSession: () => shop.refreshSession(),
    async signUp(body: SignUpBody) {
      await ready();
      return api.signUp(body);
    },
    async getSignUpVerification() {
      await ready();
      return api.getSignUpVerification();
    },
    /** Verifies the sign-up code; answers the signed-in session. */
    async verifySignUp(code: string) {
      await ready();
      return shop.adoptSession(await api.verifySignUp(code));
    },
    async resendCode(purpose: CodePurpose) {
      await ready();
      return api.resendCode(purpose);
    },
    /** Signs in (this browser's cart is merged into the account's); answers the new session. */
    async signIn(body: SignInBody) {
      await ready();
      return shop.adoptSession(await api.signIn(body));
    },
    /** Signs out: a new anonymous session, bound to the sample shopper again. */
    async signOut() {
      await ready();
      return shop.adoptSession(await api.signOut());
    },
    async setDefaultPaymentMethod(id: string) {
      await ready();
      return (await api.setDefaultPaymentMethod(id)).paymentMethods;
    },
    async listOutbox() {
      await ready();
      return api.listOutbox();
    },
    async getProfile() {
      await ready();
      return api.getProfile();
    },
    async updateProfile(body: UpdateProfileBody) {
      await ready();
      const result = await api.updateProfile(body);
      refreshQuietly();
      return result;
    },
    async confirmEmail(code: string) {
      await ready();
      const profile = await api.confirmEmail(code);
      refreshQuietly();
      return profile;
    },
    async getLoyalty() {
      await ready();
      return api.getLoyalty();
    },
    async joinLoyalty(body: JoinLoyaltyBody) {
      await ready();
      const membership = await api.joinLoyalty(body);
      refreshQuietly();
      return membership;
    },
  };
}

export type AccountClient = ReturnType<typeof createAccountClient>;

const clients = new WeakMap<ShopClient, AccountClient>();

/** The account calls on this shop client's session and api address (one per shop client). */
export function accountClientOf(shop: ShopClient): AccountClient {
  let client = clients.get(shop);
  if (!client) {
    client = createAccountClient(createAccountApi(apiClientOf(shop)), shop);
    clients.set(shop, client);
  }
  return client;
}

/** This page's account calls once start-up has run (null during server rendering). */
export function useAccountClient(): AccountClient | null {
  const shop = useShopClient();
  return useMemo(() => (shop ? accountClientOf(shop) : null), [shop]);
}

/** useShopQuery for account data: `load` gets the account calls. */
export function useAccountQuery<T>(
  key: string | null,
  load: (client: AccountClient) => Promise<T>,
): ShopQueryResult<T> {
  return useShopQuery(key, (shop) => load(accountClientOf(shop)));
}
