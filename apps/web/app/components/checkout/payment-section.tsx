import type { Dispatch, SetStateAction } from 'react';
import { brandLabel } from '../../checkout/card-form';
import type { FieldErrors } from '../../checkout/checkout-errors';
import type { PaymentMethod } from '@showroom/contracts/payments';
import { CardFields } from './card-fields';
import { FieldError } from './form-field';
import { CARD_ERROR_KEYS, type PaymentChoice } from './use-checkout-form';
import type { CardFormValues } from '../../checkout/card-form';

export function savedCardLabel(card: Pick<PaymentMethod, 'brand' | 'last4'>): string {
  return `${brandLabel(card.brand)} •••• ${card.last4}`;
}

/** Pay with a saved card (when offered and some exist) or with a card typed in now. */
export function PaymentSection({
  savedCards,
  payment,
  card,
  errors,
  disabled,
  onPayment,
  onCard,
}: {
  savedCards: PaymentMethod[] | null;
  payment: PaymentChoice;
  card: CardFormValues;
  errors: FieldErrors;
  disabled: boolean;
  onPayment(choice: PaymentChoice): void;
  onCard: Dispatch<SetStateAction<CardFormValues>>;
}) {
  const cardErrors = {
    number: errors[CARD_ERROR_KEYS.number],
    expiry: errors[CARD_ERROR_KEYS.expiry],
    cvc: errors[CARD_ERROR_KEYS.cvc],
  };
  const cardForm = (
    <CardFields
      values={card}
      errors={cardErrors}
      disabled={disabled}
      showSaveCard
      onChange={onCard}
    />
  );
  if (savedCards === null) return <p className="muted">Loading your saved cards…</p>;
  if (savedCards.length === 0) return cardForm;
  return (
    <fieldset className="payment-choice" data-testid="saved-cards">
      <legend>Pay with</legend>
      {savedCards.map((saved) => (
        <label key={saved.id} className="payment-choice__option">
          <input
            type="radio"
            name="payment"
            value={saved.id}
            checked={payment !== 'new' && payment.savedId === saved.id}
            disabled={disabled}
            onChange={() => onPayment({ savedId: saved.id })}
          />{' '}
          {savedCardLabel(saved)}{' '}
          <span className="muted">
            expires {String(saved.expMonth).padStart(2, '0')}/{String(saved.expYear).slice(-2)}
          </span>
        </label>
      ))}
      <label className="payment-choice__option">
        <input
          type="radio"
          name="payment"
          value="new"
          checked={payment === 'new'}
          disabled={disabled}
          onChange={() => onPayment('new')}
        />{' '}
        A new card
      </label>
      <FieldError id="payment-method-error" error={errors['payment.paymentMethodId']} />
      {payment === 'new' ? cardForm : null}
    </fieldset>
  );
}
