import { PASSWORD_RULE } from '@showroom/contracts/accounts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { validateSignUp, type SignUpValues } from '../accounts/account-forms';
import { DRAFTS } from '../accounts/form-drafts';
import { AccountAlert } from '../components/accounts/account-alert';
import { SignedInPanel } from '../components/accounts/signed-in-panel';
import { useAccountForm } from '../components/accounts/use-account-form';
import { useFormDraft } from '../components/accounts/use-form-draft';
import { FormField } from '../components/checkout/form-field';
import { ApiError } from '../lib/api-client';
import { usePersona } from '../startup/persona';
import { useAccountClient } from '../lib/account-session';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Create your account',
    'Create a Showroom account: keep your address and cards, and follow your orders.',
  );
}

const API_FIELDS: Readonly<Record<string, keyof SignUpValues>> = {
  name: 'name',
  email: 'email',
  password: 'password',
};

/**
 * /signup: name, e-mail address and password. Nothing is created yet: the api e-mails a
 * six-digit code and /signup-verify takes it (decision 008). Signed in already: say so.
 */
export default function SignupPage() {
  const persona = usePersona();
  if (persona?.list === 'account') {
    return (
      <SignedInPanel persona={persona} title="You already have an account">
        <p className="muted">Sign out first to create another account.</p>
      </SignedInPanel>
    );
  }
  return <SignUpForm />;
}

function SignUpForm() {
  const client = useAccountClient();
  const navigate = useNavigate();
  // Kept until the code is verified (signup-verify clears it); never the password.
  const { draft, save } = useFormDraft(DRAFTS.signUp.form, DRAFTS.signUp.fields);
  const [password, setPassword] = useState('');
  const { errors, alert, busy: submitting, formRef, submit: send } = useAccountForm(API_FIELDS);
  const values: SignUpValues = { name: draft?.name ?? '', email: draft?.email ?? '', password };
  const set = (field: 'name' | 'email', value: string) => save({ [field]: value });

  const submit = async () => {
    if (!client) return;
    await send(
      validateSignUp(values),
      async () => {
        const pending = await client.signUp({
          name: values.name.trim(),
          email: values.email.trim(),
          password,
        });
        await navigate('/signup-verify', { state: { pending } });
      },
      {
        onError: (error) => {
          // The persona was stale (signed in in another tab): show the signed-in panel instead.
          if (error instanceof ApiError && error.code === 'ALREADY_SIGNED_IN') {
            client.refreshSession().catch(() => {});
          }
          return false;
        },
      },
    );
  };

  return (
    <section className="account-page" data-testid="signup">
      <h1>Create your account</h1>
      <p className="muted">
        Keep your orders, saved cards and loyalty points in one place. We e-mail you a code to
        confirm the address.
      </p>
      <form
        ref={formRef}
        className="account-form"
        data-testid="signup-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FormField
          label="Full name"
          name="name"
          autoComplete="name"
          value={values.name}
          error={errors.name}
          disabled={submitting}
          onChange={(event) => set('name', event.target.value)}
        />
        <FormField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          error={errors.email}
          disabled={submitting}
          onChange={(event) => set('email', event.target.value)}
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          error={errors.password}
          hint={<span data-testid="password-rule">{PASSWORD_RULE}</span>}
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
          {submitting ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className="account-page__alt">
        Already have an account? <Link to="/signin">Sign in</Link>
      </p>
    </section>
  );
}
