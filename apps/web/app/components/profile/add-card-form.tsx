import { useState } from 'react';
import {
  EMPTY_CARD_FORM,
  toCardInput,
  validateCardForm,
  type CardField,
  type CardFormValues,
} from '../../checkout/card-form';
import { formFieldOf } from '../../checkout/checkout-errors';
import { ApiError } from '../../lib/api-client';
import { fieldMessage, messageOf } from '../../lib/api-errors';
import { useShopClient } from '../../lib/shop-session';
import type { PaymentMethod } from '@showroom/contracts/payments';
import { CardFields } from '../checkout/card-fields';

const CARD_FIELDS: readonly string[] = ['number', 'expiry', 'cvc'];

/** Saves a card: the api has the gateway verify it and keeps brand, last four and expiry. */
export function AddCardForm({ onSaved }: { onSaved(card: PaymentMethod): void }) {
  const client = useShopClient();
  const [values, setValues] = useState<CardFormValues>(EMPTY_CARD_FORM);
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (!client || saving) return;
    const found = validateCardForm(values);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      const saved = await client.savePaymentMethod(toCardInput(values));
      setValues(EMPTY_CARD_FORM);
      onSaved(saved);
    } catch (error) {
      const field = error instanceof ApiError && error.field ? formFieldOf(error.field) : null;
      if (field && CARD_FIELDS.includes(field) && error instanceof ApiError) {
        setErrors({ [field]: fieldMessage(`payment.card.${field}`, error.code) });
      } else {
        setFormError(messageOf(error));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="add-card-form"
      data-testid="add-card-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <CardFields
        values={values}
        errors={errors}
        disabled={saving}
        showSaveCard={false}
        onChange={setValues}
      />
      {formError ? (
        <p className="notice notice--error" role="alert">
          {formError}
        </p>
      ) : null}
      <button type="submit" className="button button--primary" disabled={!client || saving}>
        {saving ? 'Saving…' : 'Save card'}
      </button>
    </form>
  );
}
