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
  onChange(values: CardFormValues): void;
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
        onChange={(event) =>
          onChange({ ...values, number: formatCardNumberInput(event.target.value) })
        }
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
        onChange={(event) => onChange({ ...values, expiry: formatExpiryInput(event.target.value) })}
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
        onChange={(event) =>
          onChange({ ...values, cvc: event.target.value.replace(/\D/g, '').slice(0, 4) })
        }
      />
      {showSaveCard ? (
        <label className="checkbox card-fields__save">
          <input
            type="checkbox"
            name="saveCard"
            checked={values.saveCard}
            disabled={disabled}
            onChange={(event) => onChange({ ...values, saveCard: event.target.checked })}
          />{' '}
          Save this card for next time
        </label>
      ) : null}
    </div>
  );
}
