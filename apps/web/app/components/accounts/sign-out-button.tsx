import { useState } from 'react';
import { messageOf } from '../../lib/api-errors';
import { useAccountClient } from '../../lib/account-session';

/**
 * Signs out: the api gives this browser a new anonymous session (bound to the sample shopper
 * again), the persona and the cart count follow, then `onSignedOut` runs.
 */
export function SignOutButton({
  onSignedOut,
  className = 'button',
}: {
  onSignedOut?: () => void;
  className?: string;
}) {
  const client = useAccountClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signOut = async () => {
    if (!client || busy) return;
    setBusy(true);
    setError(null);
    try {
      await client.signOut();
      onSignedOut?.();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={className}
        data-testid="sign-out"
        disabled={!client || busy}
        aria-busy={busy}
        onClick={() => void signOut()}
      >
        Sign out
      </button>
      {error ? (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
