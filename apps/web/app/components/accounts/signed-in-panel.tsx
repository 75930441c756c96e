import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Persona } from '../../startup/persona';
import { SignOutButton } from './sign-out-button';

/**
 * Sign-up and sign-in while an account is signed in: say who, offer the profile and a sign-out
 * (after which the page shows its form again, the persona being the sample shopper).
 */
export function SignedInPanel({
  persona,
  title,
  children,
}: {
  persona: Persona;
  title: string;
  children?: ReactNode;
}) {
  return (
    <section className="account-page" data-testid="signed-in">
      <h1>{title}</h1>
      <p>
        You're signed in as <strong data-testid="signed-in-name">{persona.name}</strong> (
        {persona.email}).
      </p>
      {children}
      <div className="account-form__actions">
        <Link to="/profile" className="button button--primary">
          Go to your profile
        </Link>
        <SignOutButton />
      </div>
    </section>
  );
}
