import {
  useEffect,
  useId,
  useRef,
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';

/** A labelled input with its error message (announced and linked to the input). */
export function FormField({
  label,
  error,
  hint,
  className,
  ...input
}: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'className'>) {
  const id = useId();
  const errorId = `${id}-error`;
  const ref = useRef<HTMLInputElement>(null);
  const { value, onChange } = input;
  // Text typed before the page hydrated (the scripts start after the first paint, decision 022)
  // is in the input but not in the form's state, and React would write the state over it on the
  // next render: the form gets it once, as a change. Handlers must merge into the latest state.
  useEffect(() => {
    const element = ref.current;
    if (!element || value === undefined || !onChange) return;
    if (element.value !== String(value)) {
      onChange({ target: element, currentTarget: element } as ChangeEvent<HTMLInputElement>);
    }
    // Once, on mount: later changes come through onChange itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className={`form-field${error ? ' form-field--invalid' : ''} ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {hint && !error ? <p className="form-field__hint muted">{hint}</p> : null}
      {error ? (
        <p id={errorId} className="field-error" data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The error line under a control that is not a plain input (a select, a radio group). */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className="field-error" data-testid="field-error">
      {error}
    </p>
  ) : null;
}
