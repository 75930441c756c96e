import type { ProfileView } from '@showroom/contracts/accounts';
import { countryName } from '@showroom/contracts/shipping';
import { Link } from 'react-router';
import { signInPath } from '../../accounts/next-path';
import type { Persona } from '../../startup/persona';
import type { ShopQueryResult } from '../../lib/use-shop-query';
import { SignOutButton } from '../accounts/sign-out-button';

/** Who is shopping, as the page can say it: the api's profile, else the remembered persona. */
type Who = Pick<ProfileView, 'kind' | 'name' | 'email' | 'team'> &
  Partial<Pick<ProfileView, 'address' | 'pendingEmail'>>;

function whoFrom(profile: ProfileView | null, persona: Persona | null): Who | null {
  if (profile) return profile;
  if (!persona) return null;
  return {
    kind: persona.list === 'account' ? 'account' : 'sample',
    name: persona.name,
    email: persona.email,
    team: persona.team,
  };
}

const LEAD: Record<ProfileView['kind'], string> = {
  account: 'Signed in as',
  sample: 'Shopping as sample shopper',
  anonymous: 'Shopping without an account',
};

/**
 * The persona at the top of /profile: from the first visit (the persona start-up remembered)
 * until the api's profile answers; then name, e-mail, team, address and the account actions.
 */
export function ProfileSummary({
  profile,
  persona,
}: {
  profile: ShopQueryResult<ProfileView>;
  persona: Persona | null;
}) {
  const who = whoFrom(profile.data, persona);
  if (!who) {
    return (
      <p className="muted" aria-busy="true">
        Loading your profile…
      </p>
    );
  }
  return (
    <section
      className="profile-section profile-summary"
      aria-label="Who is shopping"
      data-testid="profile-identity"
      data-kind={who.kind}
    >
      <p className="profile-summary__lead muted">{LEAD[who.kind]}</p>
      {who.name ? (
        <p className="profile-summary__name">
          <strong data-testid="profile-name">{who.name}</strong>
        </p>
      ) : null}
      <p>
        <span data-testid="profile-email">{who.email}</span>
        {who.team ? <span className="muted"> · team {who.team}</span> : null}
      </p>
      {who.pendingEmail ? (
        <p className="notice" data-testid="profile-pending-email">
          Waiting for the code sent to <strong>{who.pendingEmail}</strong>.{' '}
          <Link to="/verification">Enter the code</Link>
        </p>
      ) : null}
      {who.address ? (
        <address data-testid="profile-address">
          {who.address.address1}
          {who.address.address2 ? `, ${who.address.address2}` : null}, {who.address.postalCode}{' '}
          {who.address.city}, {countryName(who.address.country)}
        </address>
      ) : who.address === null ? (
        <p className="muted">No shipping address saved.</p>
      ) : null}
      <div className="profile-summary__actions">
        {who.kind === 'account' ? (
          <SignOutButton />
        ) : (
          <>
            <Link to={signInPath('/profile')} className="button button--primary button--small">
              Sign in
            </Link>
            <Link to="/signup" className="button button--small">
              Create account
            </Link>
          </>
        )}
      </div>
    </section>
  );
}
