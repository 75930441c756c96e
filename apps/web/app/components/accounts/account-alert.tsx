import type { ReactNode } from 'react';

/**
 * A failure of a whole account form (wrong password, too many tries, the shop unreachable),
 * above its button. Focusable, so a failed submit can move focus to it.
 */
export function AccountAlert({
  message,
  children,
}: {
  message: string | null;
  children?: ReactNode;
}) {
  if (!message) return null;
  return (
    <div className="notice notice--error" role="alert" tabIndex={-1} data-testid="form-error">
      <p>{message}</p>
      {children}
    </div>
  );
}

/** A form's success line (saved, joined, sent), announced politely. */
export function AccountNotice({
  children,
  testId = 'form-success',
}: {
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="notice notice--success" role="status" data-testid={testId}>
      {children}
    </div>
  );
}
