import type { PendingVerification, ProfileView } from '@showroom/contracts/accounts';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { AccountNotice } from '../components/accounts/account-alert';
import { CodeDestination, CodeForm, type CodeTarget } from '../components/accounts/code-form';
import { ShopQueryView } from '../components/shop-query-view';
import { useDemoFeature } from '../flags/use-demo-feature';
import { useAccountClient, useAccountQuery } from '../lib/account-session';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta('Verification', 'Confirm your e-mail address with the code we sent you.');
}

/** The e-mail change handed over by /profile-edit (its expiry, resend time and delivery). */
function handedOver(state: unknown, email: string): PendingVerification | null {
  if (typeof state !== 'object' || state === null || !('pending' in state)) return null;
  const pending = (state as { pending: unknown }).pending as Partial<PendingVerification> | null;
  return pending?.purpose === 'email-change' && pending.email === email
    ? (pending as PendingVerification)
    : null;
}

/**
 * /verification: after sign-up, the confirmation that the address is verified and the
 * shopper signed in; and the code entry of an e-mail change (the profile's `pendingEmail`),
 * which takes effect once the code sent to the new address comes back (decision 008).
 */
export default function VerificationPage() {
  const profile = useAccountQuery('profile', (client) => client.getProfile());
  const [confirmed, setConfirmed] = useState<string | null>(null);
  return (
    <section className="account-page account-page--wide" data-testid="verification">
      <ShopQueryView query={profile} loading="Loading your account…">
        {(current) => (
          <>
            {confirmed ? (
              <AccountNotice testId="email-confirmed">
                <p>
                  Your e-mail address is now <strong>{confirmed}</strong>.
                </p>
              </AccountNotice>
            ) : null}
            {current.pendingEmail ? (
              <EmailChange
                profile={current}
                email={current.pendingEmail}
                onConfirmed={(next) => {
                  setConfirmed(next.email);
                  profile.setData(next);
                }}
              />
            ) : current.kind === 'account' ? (
              <Verified profile={current} />
            ) : confirmed ? (
              <p>
                <Link to="/profile">Back to your profile</Link>
              </p>
            ) : (
              <NothingToVerify />
            )}
          </>
        )}
      </ShopQueryView>
    </section>
  );
}

function Verified({ profile }: { profile: ProfileView }) {
  const location = useLocation();
  const showLoyalty = useDemoFeature('showLoyaltyProgram');
  const justSignedUp =
    typeof location.state === 'object' &&
    location.state !== null &&
    (location.state as { verified?: unknown }).verified === 'signup';
  return (
    <div data-testid="verified" data-just-signed-up={justSignedUp}>
      <h1>Your e-mail address is verified</h1>
      <p>
        {justSignedUp ? 'Welcome to Showroom! ' : null}
        You're signed in as <strong data-testid="verified-name">{profile.name}</strong> (
        <span data-testid="verified-email">{profile.email}</span>).
      </p>
      <ul className="account-links">
        <li>
          <Link to="/profile">Go to your profile</Link>
        </li>
        {showLoyalty && !profile.loyaltyMember ? (
          <li>
            <Link to="/loyalty-signup" data-testid="verified-loyalty-link">
              Join Showroom Circle, our loyalty programme
            </Link>
          </li>
        ) : null}
        <li>
          <Link to="/">Continue shopping</Link>
        </li>
      </ul>
    </div>
  );
}

function EmailChange({
  profile,
  email,
  onConfirmed,
}: {
  profile: ProfileView;
  email: string;
  onConfirmed(profile: ProfileView): void;
}) {
  const client = useAccountClient();
  const location = useLocation();
  const [resent, setResent] = useState<PendingVerification | null>(null);
  const target: CodeTarget = resent ??
    handedOver(location.state, email) ?? { purpose: 'email-change', email };

  const confirm = async (code: string) => {
    if (!client) return;
    onConfirmed(await client.confirmEmail(code));
  };

  return (
    <div data-testid="email-change">
      <h1>Confirm your new e-mail address</h1>
      <p className="muted">
        Your e-mail address stays <strong>{profile.email}</strong> until you enter the code.
      </p>
      <CodeDestination pending={target} />
      <CodeForm
        pending={target}
        onVerify={confirm}
        onResent={setResent}
        restart={{ to: '/profile-edit', label: 'Change your e-mail address again' }}
      />
    </div>
  );
}

function NothingToVerify() {
  return (
    <div data-testid="nothing-to-verify">
      <h1>Nothing to verify</h1>
      <p>No code is waiting in this browser.</p>
      <ul className="account-links">
        <li>
          <Link to="/signup">Create an account</Link>
        </li>
        <li>
          <Link to="/signup-verify">Enter a sign-up code</Link>
        </li>
        <li>
          <Link to="/signin">Sign in</Link>
        </li>
      </ul>
    </div>
  );
}
