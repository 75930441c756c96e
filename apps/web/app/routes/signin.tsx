import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { validateSignIn, type SignInValues } from '../accounts/account-forms';
import { DRAFTS } from '../accounts/form-drafts';
import { safeNextPath } from '../accounts/next-path';
import { AccountAlert } from '../components/accounts/account-alert';
import { SignedInPanel } from '../components/accounts/signed-in-panel';
import { useAccountForm } from '../components/accounts/use-account-form';
import { useFormDraft } from '../components/accounts/use-form-draft';
import { FormField } from '../components/checkout/form-field';
import { usePersona } from '../startup/persona';
import { useAccountClient } from '../lib/account-session';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Sign in',
    'Sign in to your Showroom account: your address, saved cards and orders.',
  );
}

const API_FIELDS: Readonly<Record<string, keyof SignInValues>> = {
  email: 'email',
  password: 'password',
};

/**
 * /signin: e-mail address and password. The api starts a new session for the account with
 * this browser's cart merged in; the shopper goes back to `?next=` (a path of this site only)
 * or to the profile.
 */
export default function SignInPage() {
  const persona = usePersona();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const [attempted, setAttempted] = useState(false);
  // Right after signing in the persona is the account already: keep the form until we leave.
  if (persona?.list === 'account' && !attempted) {
    return <SignedInPanel persona={persona} title="You're signed in" />;
  }
  return <SignInForm next={next} onAttempt={() => setAttempted(true)} />;
}

function SignInForm({ next, onAttempt }: { next: string; onAttempt(): void }) {
  const client = useAccountClient();
  const navigate = useNavigate();
  const { draft, save, clear } = useFormDraft(DRAFTS.signIn.form, DRAFTS.signIn.fields);
  const [password, setPassword] = useState('');
  const { errors, alert, busy: submitting, formRef, submit: send } = useAccountForm(API_FIELDS);
  const values: SignInValues = { email: draft?.email ?? '', password };

  // A wrong password or address is one answer for both: above the form, fields kept.
  const submit = async () => {
    if (!client) return;
    await send(validateSignIn(values), async () => {
      onAttempt();
      await client.signIn({ email: values.email.trim(), password });
      clear();
      await navigate(next);
    });
  };

  return (
    <section className="account-page" data-testid="signin">
      <h1>Sign in</h1>
      <form
        ref={formRef}
        className="account-form"
        data-testid="signin-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FormField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="username"
          value={values.email}
          error={errors.email}
          disabled={submitting}
          onChange={(event) => save({ email: event.target.value })}
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          disabled={submitting}
          onChange={(event) => setPassword(event.target.value)}
        />
        <AccountAlert message={alert} />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={!client || submitting}
          aria-busy={submitting}
        >
          {submitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="account-page__alt">
        New here? <Link to="/signup">Create an account</Link>
      </p>
    </section>
  );
}
