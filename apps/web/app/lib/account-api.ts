import type {
  JoinLoyaltyBody,
  LoyaltyMembership,
  LoyaltyStatus,
  OutboxList,
  PendingVerification,
  ProfileView,
  SignInBody,
  SignUpBody,
  UpdateProfileBody,
  UpdateProfileResult,
} from '@showroom/contracts/accounts';
import type { PaymentMethod } from '@showroom/contracts/payments';
import type { SessionView } from '@showroom/contracts/session';
import type { ApiClient } from './api-client';

/** What an e-mailed code is for: a new account, or a new address of the profile. */
export type CodePurpose = PendingVerification['purpose'];

/** The signed-in account as `GET /accounts/:id` answers it. */
export type Account = NonNullable<SessionView['account']>;

/**
 * The accounts, profile, outbox and loyalty routes (decision 008) and the choice of a default
 * card, typed from the contract.
 * Apart from shop-api.ts so the shop's other pages (the product page's first-visit budget)
 * do not load them. The forms show every failure next to the field or above the form, so none
 * is reported to the error modal.
 */
export function createAccountApi({ request }: ApiClient) {
  return {
    /** Makes a saved card the default; answers the list again, the new default first. */
    setDefaultPaymentMethod: (id: string) =>
      request<{ paymentMethods: PaymentMethod[] }>(
        'PUT',
        `/payment-methods/${encodeURIComponent(id)}/default`,
      ),
    signUp: (body: SignUpBody) =>
      request<PendingVerification>('POST', '/accounts', { body, report: false }),
    /** This session's sign-up waiting for its code; 404 NOT_FOUND when there is none. */
    getSignUpVerification: () =>
      request<PendingVerification>('GET', '/accounts/verification', { report: false }),
    /** The code matched: the answer is the signed-in session (the cookie was renewed). */
    verifySignUp: (code: string) =>
      request<SessionView>('POST', '/accounts/verification', {
        body: { code },
        report: false,
      }),
    resendCode: (purpose: CodePurpose) =>
      request<PendingVerification>('POST', '/verification/resend', {
        body: { purpose },
        report: false,
      }),
    signIn: (body: SignInBody) =>
      request<SessionView>('POST', '/session/sign-in', { body, report: false }),
    signOut: () => request<SessionView>('POST', '/session/sign-out', { report: false }),
    getAccount: (id: string) => request<Account>('GET', `/accounts/${encodeURIComponent(id)}`),
    listOutbox: () => request<OutboxList>('GET', '/outbox'),

    getProfile: () => request<ProfileView>('GET', '/profile'),
    updateProfile: (body: UpdateProfileBody) =>
      request<UpdateProfileResult>('PATCH', '/profile', { body, report: false }),
    confirmEmail: (code: string) =>
      request<ProfileView>('POST', '/profile/email-verification', {
        body: { code },
        report: false,
      }),

    getLoyalty: () => request<LoyaltyStatus>('GET', '/loyalty'),
    joinLoyalty: (body: JoinLoyaltyBody) =>
      request<LoyaltyMembership>('POST', '/loyalty', { body, report: false }),
  };
}

export type AccountApi = ReturnType<typeof createAccountApi>;
