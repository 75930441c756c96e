import type { Dispatch, SetStateAction } from 'react';
import {
  formatCardNumberInput,
  formatExpiryInput,
  type CardField,
  type CardFormValues,
} from '../../checkout/card-form';
import { FormField } from './form-field';

/**
 * Card number, expiry (MM/YY) and security code, with an optional "save card" box. The
 * numbers go to the api over the wire and nowhere else: no storage, no logs.
 */
export function CardFields({
  values,
  errors,
  disabled,
  showSaveCard,
  onChange,
}: {
  values: CardFormValues;
  errors: Partial<Record<CardField, string>>;
  disabled?: boolean;
  showSaveCard: boolean;
  /** The form's state setter: each field merges into the latest values (see FormField). */
  onChange: Dispatch<SetStateAction<CardFormValues>>;
}) {
  return (
    <div className="card-fields" data-testid="card-fields">
      <FormField
        label="Card number"
        name="cardNumber"
        className="card-fields__number"
        autoComplete="cc-number"
        inputMode="numeric"
        placeholder="1234 1234 1234 1234"
        value={values.number}
        error={errors.number}
        disabled={disabled}
        onChange={(event) => {
          const number = formatCardNumberInput(event.target.value);
          onChange((current) => ({ ...current, number }));
        }}
      />
      <FormField
        label="Expiry (MM/YY)"
        name="cardExpiry"
        autoComplete="cc-exp"
        inputMode="numeric"
        placeholder="MM/YY"
        value={values.expiry}
        error={errors.expiry}
        disabled={disabled}
        onChange={(event) => {
          const expiry = formatExpiryInput(event.target.value);
          onChange((current) => ({ ...current, expiry }));
        }}
      />
      <FormField
        label="Security code (CVC)"
        name="cardCvc"
        autoComplete="cc-csc"
        inputMode="numeric"
        maxLength={4}
        placeholder="123"
        value={values.cvc}
        error={errors.cvc}
        disabled={disabled}
        onChange={(event) => {
          const cvc = event.target.value.replace(/\D/g, '').slice(0, 4);
          onChange((current) => ({ ...current, cvc }));
        }}
      />
      {showSaveCard ? (
        <label className="checkbox card-fields__save">
          <input
            type="checkbox"
            name="saveCard"
            checked={values.saveCard}
            disabled={disabled}
            onChange={(event) => {
              const saveCard = event.target.checked;
              onChange((current) => ({ ...current, saveCard }));
            }}
          />{' '}
          Save this card for next time
        </label>
      ) : null}
    </div>
  );
}
