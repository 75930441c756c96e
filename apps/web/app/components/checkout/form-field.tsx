import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

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
  return (
    <div className={`form-field${error ? ' form-field--invalid' : ''} ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
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
