import { useEffect, useRef, useState } from 'react';

/**
 * Keyboard and screen-reader users land on what went wrong: after a failed submit, focus moves
 * to the first field marked invalid, else to the form's alert (which has tabIndex -1).
 * Call `focusError()` whenever a submit fails; the move happens once the errors are rendered.
 */
export function useErrorFocus<T extends HTMLElement = HTMLFormElement>() {
  const formRef = useRef<T>(null);
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures === 0) return;
    const form = formRef.current;
    const target =
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      form?.querySelector<HTMLElement>('[role="alert"]');
    target?.focus();
  }, [failures]);
  return { formRef, focusError: () => setFailures((count) => count + 1) };
}
