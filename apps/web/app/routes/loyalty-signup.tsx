import {
  LOYALTY_TIER_THRESHOLDS,
  LOYALTY_WELCOME_POINTS,
  type LoyaltyMembership,
} from '@showroom/contracts/accounts';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  loyaltyJoinBody,
  validateLoyaltyJoin,
  type LoyaltyJoinValues,
} from '../accounts/account-forms';
import { DRAFTS } from '../accounts/form-drafts';
import { AccountAlert, AccountNotice } from '../components/accounts/account-alert';
import { useAccountForm } from '../components/accounts/use-account-form';
import { useFormDraft } from '../components/accounts/use-form-draft';
import { FieldError, FormField } from '../components/checkout/form-field';
import { MembershipSummary, PROGRAMME_NAME } from '../components/loyalty/membership';
import { ShopQueryView } from '../components/shop-query-view';
import { ApiError } from '../lib/api-client';
import { useAccountClient, useAccountQuery } from '../lib/account-session';
import { trackAction } from '../monitoring/track';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    `Join ${PROGRAMME_NAME}`,
    `${PROGRAMME_NAME}, the Showroom loyalty programme: points on every order and members-only prices.`,
  );
}

const API_FIELDS: Readonly<Record<string, keyof LoyaltyJoinValues>> = {
  consent: 'consent',
  birthday: 'birthday',
};

/**
 * /loyalty-signup: join the loyalty programme with consent (required) and a birthday
 * (optional). Shoppers from the loyalty list are invited, with a welcome bonus; a member sees
 * their membership instead of the form.
 */
export default function LoyaltySignupPage() {
  const loyalty = useAccountQuery('loyalty', (client) => client.getLoyalty());
  const [joined, setJoined] = useState(false);
  return (
    <section className="account-page" data-testid="loyalty-signup">
      <ShopQueryView query={loyalty} loading="Loading the programme…">
        {({ membership, invited }) =>
          membership ? (
            <Member membership={membership} joined={joined} />
          ) : (
            <>
              <h1>
                {invited ? `You're invited to ${PROGRAMME_NAME}` : 'Join the loyalty programme'}
              </h1>
              <p data-testid="loyalty-pitch" data-invited={invited}>
                {invited
                  ? `As one of our loyal shoppers you start with ${LOYALTY_WELCOME_POINTS} welcome points. `
                  : null}
                Earn one point per dollar on every order: Silver from{' '}
                {LOYALTY_TIER_THRESHOLDS.silver} points, Gold from {LOYALTY_TIER_THRESHOLDS.gold}.
              </p>
              <JoinForm
                onJoined={(next) => {
                  setJoined(true);
                  loyalty.setData({ membership: next, invited: false });
                }}
                onAlreadyMember={loyalty.reload}
              />
            </>
          )
        }
      </ShopQueryView>
    </section>
  );
}

function Member({ membership, joined }: { membership: LoyaltyMembership; joined: boolean }) {
  const welcome = membership.history.find((entry) => entry.reason === 'welcome');
  return (
    <>
      <h1>{joined ? `Welcome to ${PROGRAMME_NAME}` : `You're a member of ${PROGRAMME_NAME}`}</h1>
      {joined ? (
        <AccountNotice testId="loyalty-joined">
          <p>
            You joined {PROGRAMME_NAME}
            {welcome ? ` and got ${welcome.points} welcome points` : null}.
          </p>
        </AccountNotice>
      ) : null}
      <MembershipSummary membership={membership} />
      <p>
        <Link to="/profile">See your points on your profile</Link>
      </p>
    </>
  );
}

function JoinForm({
  onJoined,
  onAlreadyMember,
}: {
  onJoined(membership: LoyaltyMembership): void;
  onAlreadyMember(): void;
}) {
  const client = useAccountClient();
  const consentId = useId();
  const { draft, save, clear } = useFormDraft(DRAFTS.loyalty.form, DRAFTS.loyalty.fields);
  // Consent is asked each time: a stored tick would not be the shopper's decision.
  const [consent, setConsent] = useState(false);
  const { errors, alert, busy: joining, formRef, submit } = useAccountForm(API_FIELDS);
  const values: LoyaltyJoinValues = { consent, birthday: draft?.birthday ?? '' };

  const join = async () => {
    if (!client) return;
    await submit(
      validateLoyaltyJoin(values, new Date()),
      async () => {
        const membership = await client.joinLoyalty(loyaltyJoinBody(values));
        trackAction(MONITORING_ACTIONS.loyaltySignUp, {
          tier: membership.tier,
          points: membership.points,
          birthday_given: values.birthday !== '',
        });
        clear();
        onJoined(membership);
      },
      {
        onError: (error) => {
          if (!(error instanceof ApiError && error.code === 'ALREADY_MEMBER')) return false;
          onAlreadyMember();
          return true;
        },
      },
    );
  };

  return (
    <form
      ref={formRef}
      className="account-form"
      data-testid="loyalty-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void join();
      }}
    >
      <div className={`form-field${errors.consent ? ' form-field--invalid' : ''}`}>
        <label className="checkbox">
          <input
            type="checkbox"
            name="consent"
            required
            checked={consent}
            disabled={joining}
            aria-invalid={errors.consent ? true : undefined}
            aria-describedby={errors.consent ? `${consentId}-error` : undefined}
            onChange={(event) => setConsent(event.target.checked)}
          />
          I agree to the programme terms
        </label>
        <FieldError id={`${consentId}-error`} error={errors.consent} />
      </div>
      <FormField
        label="Birthday (optional)"
        name="birthday"
        type="date"
        autoComplete="bday"
        value={values.birthday}
        error={errors.birthday}
        hint="For a birthday bonus."
        disabled={joining}
        onChange={(event) => save({ birthday: event.target.value })}
      />
      <AccountAlert message={alert} />
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={!client || joining}
        aria-busy={joining}
      >
        {joining ? 'Joining…' : 'Join'}
      </button>
    </form>
  );
}
