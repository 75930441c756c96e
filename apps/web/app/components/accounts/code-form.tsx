import { VERIFICATION_CODE_LENGTH, type PendingVerification } from '@showroom/contracts/accounts';
import { useState } from 'react';
import { Link } from 'react-router';
import { expiresIn, formatCountdown, resendWaitSeconds } from '../../accounts/countdown';
import { fieldErrorOf, normaliseCode, validateCode } from '../../accounts/account-forms';
import { ApiError } from '../../lib/api-client';
import { messageOf } from '../../lib/api-errors';
import { useAccountClient } from '../../lib/account-session';
import { FormField } from '../checkout/form-field';
import { AccountAlert } from './account-alert';
import { useErrorFocus } from './use-error-focus';
import { useNow } from './use-now';

/**
 * A code waiting to be entered. An e-mail change known only from the profile (after a reload)
 * has just its address: no expiry, resend time or delivery to show.
 */
export type CodeTarget = Pick<PendingVerification, 'purpose' | 'email'> &
  Partial<Pick<PendingVerification, 'expiresAt' | 'resendAfter' | 'delivery'>>;

/**
 * Where the code went: the address, how long it works and — when the shop keeps its mail in
 * the outbox instead of sending it (no SMTP configured) — the way to read it.
 */
export function CodeDestination({ pending }: { pending: CodeTarget }) {
  const now = useNow(null);
  const { expiresAt } = pending;
  return (
    <div className="code-destination" data-testid="code-destination">
      <p>
        We sent a {VERIFICATION_CODE_LENGTH}-digit code to{' '}
        <strong data-testid="code-email">{pending.email}</strong>.
        {expiresAt ? ` It works for ${expiresIn({ expiresAt }, now)}.` : null}
      </p>
      {pending.delivery === undefined ? (
        <p className="muted" data-testid="code-delivery">
          Check your inbox — or, when this demo shop keeps its mail,{' '}
          <Link to="/outbox" data-testid="outbox-link">
            the outbox
          </Link>
          .
        </p>
      ) : pending.delivery === 'outbox' ? (
        <p className="muted" data-testid="code-delivery" data-delivery="outbox">
          This demo shop keeps its mail instead of sending it:{' '}
          <Link to="/outbox" data-testid="outbox-link">
            read the code in the outbox
          </Link>
          .
        </p>
      ) : (
        <p className="muted" data-testid="code-delivery" data-delivery="smtp">
          Check your inbox (and the spam folder).
        </p>
      )}
    </div>
  );
}

/**
 * The code form of sign-up and of an e-mail change: six digits (typed or pasted, with or
 * without spaces), Verify, and "Send a new code" once the api allows it (once a minute). A
 * wrong code says how many tries are left (the api's sentence); an expired or locked one says
 * to ask for a new code. `onVerify` makes the call and moves on; its failure shows here.
 */
export function CodeForm({
  pending,
  onVerify,
  onResent,
  restart,
}: {
  pending: CodeTarget;
  onVerify(code: string): Promise<void>;
  onResent(pending: PendingVerification): void;
  /** Where to start over when nothing waits for a code any more. */
  restart: { to: string; label: string };
}) {
  const client = useAccountClient();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [alert, setAlert] = useState<{ message: string; restart: boolean } | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [resend, setResend] = useState<{ sending: boolean; message: string | null; ok: boolean }>({
    sending: false,
    message: null,
    ok: false,
  });
  const { formRef, focusError } = useErrorFocus();
  const { resendAfter } = pending;
  const resendAt = resendAfter ? Date.parse(resendAfter) : null;
  const now = useNow(resendAt);
  const wait = resendAfter ? resendWaitSeconds({ resendAfter }, now) : 0;

  const verify = async () => {
    if (verifying) return;
    const found = validateCode(code);
    setError(found);
    setAlert(null);
    if (found) {
      focusError();
      return;
    }
    setVerifying(true);
    try {
      await onVerify(code);
    } catch (failure) {
      const onField = fieldErrorOf(failure, { code: 'code' } as const);
      if (onField?.code) setError(onField.code);
      else {
        setAlert({
          message: messageOf(failure),
          restart: failure instanceof ApiError && failure.code === 'NO_PENDING_VERIFICATION',
        });
      }
      focusError();
    } finally {
      setVerifying(false);
    }
  };

  const sendAgain = async () => {
    if (!client || resend.sending) return;
    setResend({ sending: true, message: null, ok: false });
    try {
      const next = await client.resendCode(pending.purpose);
      setCode('');
      setError(undefined);
      setAlert(null);
      onResent(next);
      setResend({
        sending: false,
        message: `A new code is on its way to ${next.email}.`,
        ok: true,
      });
    } catch (failure) {
      // A 429 carries the api's "once a minute" sentence; the button stays for a later try.
      setResend({ sending: false, message: messageOf(failure), ok: false });
    }
  };

  return (
    <form
      ref={formRef}
      className="account-form code-form"
      data-testid="code-form"
      data-purpose={pending.purpose}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void verify();
      }}
    >
      <FormField
        label="Code"
        name="code"
        className="code-form__code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        placeholder="123456"
        value={code}
        error={error}
        disabled={verifying}
        onChange={(event) => setCode(normaliseCode(event.target.value))}
      />
      <AccountAlert message={alert?.message ?? null}>
        {alert?.restart ? (
          <p>
            <Link to={restart.to}>{restart.label}</Link>
          </p>
        ) : null}
      </AccountAlert>
      <div className="account-form__actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={!client || verifying}
          aria-busy={verifying}
        >
          {verifying ? 'Checking…' : 'Verify'}
        </button>
        <button
          type="button"
          className="button"
          data-testid="resend-code"
          disabled={!client || resend.sending || wait > 0}
          onClick={() => void sendAgain()}
        >
          Send a new code
        </button>
      </div>
      {wait > 0 ? (
        <p className="muted code-form__wait" data-testid="resend-countdown">
          You can ask for a new code in <span className="countdown">{formatCountdown(wait)}</span>.
        </p>
      ) : null}
      {resend.message ? (
        <p
          className={`notice ${resend.ok ? 'notice--success' : 'notice--error'}`}
          role={resend.ok ? 'status' : 'alert'}
          data-testid="resend-result"
        >
          {resend.message}
        </p>
      ) : null}
    </form>
  );
}
