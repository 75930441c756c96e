import { useState } from 'react';
import { fieldErrorOf, hasErrors, type FormErrors } from '../../accounts/account-forms';
import { messageOf } from '../../lib/api-errors';
import { useErrorFocus } from './use-error-focus';

export interface SubmitOptions {
  /** Sees a failure first; answering true claims it (nothing is shown, focus stays). */
  onError?(error: unknown): boolean;
  /** After a success the form stays busy (the page moves on) unless this is 'idle'. */
  afterSuccess?: 'busy' | 'idle';
}

/**
 * The submit of an account form (sign-in, sign-up, profile, loyalty): the form's own check
 * first, then the api call with the form busy; a failure lands on the field the api names
 * (`apiFields` maps its field paths to the form's fields) or above the button, and focus moves
 * to it (useErrorFocus).
 */
export function useAccountForm<F extends string>(apiFields: Readonly<Record<string, F>>) {
  const [errors, setErrors] = useState<FormErrors<F>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { formRef, focusError } = useErrorFocus();

  /** Shows `found` and stops when it holds any error; otherwise runs `send`. */
  const submit = async (
    found: FormErrors<F>,
    send: () => Promise<void>,
    options: SubmitOptions = {},
  ): Promise<void> => {
    if (busy) return;
    setErrors(found);
    setAlert(null);
    if (hasErrors(found)) {
      focusError();
      return;
    }
    setBusy(true);
    try {
      await send();
      if (options.afterSuccess === 'idle') setBusy(false);
    } catch (error) {
      setBusy(false);
      if (options.onError?.(error)) return;
      const onField = fieldErrorOf(error, apiFields);
      if (onField) setErrors(onField);
      else setAlert(messageOf(error));
      focusError();
    }
  };

  return { errors, setErrors, alert, busy, formRef, submit };
}
