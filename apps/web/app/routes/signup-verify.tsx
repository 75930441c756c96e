import type { PendingVerification } from '@showroom/contracts/accounts';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { DRAFTS } from '../accounts/form-drafts';
import { CodeDestination, CodeForm } from '../components/accounts/code-form';
import { useFormDraft } from '../components/accounts/use-form-draft';
import { ShopQueryView } from '../components/shop-query-view';
import { ApiError } from '../lib/api-client';
import { usePersona } from '../startup/persona';
import { useAccountClient, useAccountQuery } from '../lib/account-session';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Check your inbox',
    'Enter the code we sent you to confirm your new Showroom account.',
  );
}

/** The sign-up's answer handed over by /signup, shown while the api is asked again. */
function handedOver(state: unknown): PendingVerification | null {
  if (typeof state !== 'object' || state === null || !('pending' in state)) return null;
  const pending = (state as { pending: unknown }).pending as Partial<PendingVerification> | null;
  return pending?.purpose === 'signup' && typeof pending.email === 'string'
    ? (pending as PendingVerification)
    : null;
}

/**
 * /signup-verify: the six-digit code of a sign-up. The api says what is waiting (a reload and
 * a visit from the outbox find it again); the right code creates the account, signs this
 * browser in and leads to /verification.
 */
export default function SignupVerifyPage() {
  const client = useAccountClient();
  const navigate = useNavigate();
  const location = useLocation();
  const persona = usePersona();
  const signUpDraft = useFormDraft(DRAFTS.signUp.form, DRAFTS.signUp.fields);
  const waiting = useAccountQuery('signup-verification', (shop) => shop.getSignUpVerification());
  const [resent, setResent] = useState<PendingVerification | null>(null);
  const pending = resent ?? waiting.data ?? handedOver(location.state);
  const nothingWaiting =
    waiting.status === 'failed' &&
    waiting.error instanceof ApiError &&
    (waiting.error.code === 'NOT_FOUND' || waiting.error.code === 'NO_PENDING_VERIFICATION');

  const verify = async (code: string) => {
    if (!client) return;
    await client.verifySignUp(code);
    signUpDraft.clear();
    await navigate('/verification', { state: { verified: 'signup' } });
  };

  if (nothingWaiting && !resent) {
    return (
      <section className="account-page" data-testid="signup-verify" data-waiting="false">
        <h1>Nothing to verify</h1>
        {persona?.list === 'account' ? (
          <p>
            You're signed in as <strong>{persona.name}</strong>.{' '}
            <Link to="/profile">Go to your profile</Link>
          </p>
        ) : (
          <p>
            No sign-up is waiting for a code in this browser (codes work for 10 minutes).{' '}
            <Link to="/signup">Create your account</Link>
          </p>
        )}
      </section>
    );
  }

  return (
    <section className="account-page" data-testid="signup-verify" data-waiting={pending !== null}>
      <h1>Check your inbox</h1>
      {pending ? (
        <>
          <CodeDestination pending={pending} />
          <CodeForm
            pending={pending}
            onVerify={verify}
            onResent={setResent}
            restart={{ to: '/signup', label: 'Create your account again' }}
          />
          <p className="account-page__alt muted">
            Wrong address? <Link to="/signup">Start again</Link>
          </p>
        </>
      ) : (
        <ShopQueryView query={waiting} loading="Looking for your code…">
          {() => null}
        </ShopQueryView>
      )}
    </section>
  );
}
