import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ReactNode } from 'react';
import { ApiError, onApiFailure } from '../lib/api-client';
import { messageOf } from '../lib/api-errors';
import { trackError } from '../monitoring/track';

export interface ShownError {
  title: string;
  message: string;
}

interface ErrorModalApi {
  showError(error: unknown, title?: string): void;
}

const ErrorModalContext = createContext<ErrorModalApi | null>(null);

/** Reports an error to the shopper in a modal dialog. */
export function useErrorModal(): ErrorModalApi {
  const api = useContext(ErrorModalContext);
  if (!api) throw new Error('useErrorModal must be used inside <ErrorModalProvider>');
  return api;
}

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return messageOf(error);
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong.';
}

export function ErrorModalProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<ShownError | null>(null);
  const showError = useCallback((error: unknown, title = 'Something went wrong') => {
    setShown({ title, message: describeError(error) });
    // Every error the shopper is shown reaches monitoring too (once: callers need not report it).
    trackError(error, { source: 'error-modal', title });
  }, []);
  const api = useMemo(() => ({ showError }), [showError]);
  // Calls the api client could not complete (no answer, a 5xx) are shown here, once.
  useEffect(
    () => onApiFailure((error) => showError(error, 'The shop could not answer')),
    [showError],
  );
  return (
    <ErrorModalContext.Provider value={api}>
      {children}
      <ErrorModal error={shown} onClose={() => setShown(null)} />
    </ErrorModalContext.Provider>
  );
}

export function ErrorModal({ error, onClose }: { error: ShownError | null; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (error && !element.open) element.showModal();
    if (!error && element.open) element.close();
  }, [error]);
  return (
    <dialog
      ref={dialog}
      className="error-modal"
      aria-labelledby="error-modal-title"
      onClose={onClose}
      data-testid="error-modal"
    >
      <h2 id="error-modal-title">{error?.title}</h2>
      <p>{error?.message}</p>
      <form method="dialog">
        <button className="button" type="submit">
          Close
        </button>
      </form>
    </dialog>
  );
}
