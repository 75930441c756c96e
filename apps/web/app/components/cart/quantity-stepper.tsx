import { MAX_LINE_QUANTITY, MIN_LINE_QUANTITY } from '@showroom/contracts/cart-limits';
import { useId, useState } from 'react';

/**
 * − / number / + for a cart line; a typed number is sent on Enter or when leaving the field.
 * Give it `key={value}` so a new quantity from the api resets what is typed.
 */
export function QuantityStepper({
  value,
  label,
  disabled,
  onChange,
}: {
  value: number;
  label: string;
  disabled: boolean;
  onChange(quantity: number): void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(String(value));

  const commit = () => {
    const typed = Number(draft);
    if (!Number.isInteger(typed) || typed < MIN_LINE_QUANTITY || typed > MAX_LINE_QUANTITY) {
      setDraft(String(value));
      return;
    }
    if (typed !== value) onChange(typed);
  };

  return (
    <div className="quantity-stepper">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <button
        type="button"
        className="quantity-stepper__button"
        aria-label={`Decrease ${label.toLowerCase()}`}
        disabled={disabled || value <= MIN_LINE_QUANTITY}
        onClick={() => onChange(value - 1)}
      >
        −
      </button>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={MIN_LINE_QUANTITY}
        max={MAX_LINE_QUANTITY}
        value={draft}
        disabled={disabled}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
      />
      <button
        type="button"
        className="quantity-stepper__button"
        aria-label={`Increase ${label.toLowerCase()}`}
        disabled={disabled || value >= MAX_LINE_QUANTITY}
        onClick={() => onChange(value + 1)}
      >
        +
      </button>
    </div>
  );
}
