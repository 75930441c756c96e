import type { ShippingCountry } from '@showroom/contracts/shipping';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  EMPTY_CARD_FORM,
  toCardInput,
  validateCardForm,
  type CardField,
  type CardFormValues,
} from '../../checkout/card-form';
import {
  cleanAddress,
  formFieldOf,
  validateAddress,
  type FieldErrors,
} from '../../checkout/checkout-errors';
import { stepOfError, type CheckoutStep } from '../../checkout/checkout-steps';
import { newIdempotencyKey } from '../../checkout/idempotency-key';
import { useErrorModal } from '../error-modal';
import { ApiError } from '../../lib/api-client';
import { fieldMessage, messageOf } from '../../lib/api-errors';
import { useShopClient } from '../../lib/shop-session';
import { amountContext, trackAction, trackError } from '../../monitoring/track';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import { FAULT_RUM_ERRORS } from '@showroom/contracts/faults';
import type { PaymentInput } from '@showroom/contracts/checkout';
import type { CheckoutFlow, InstantPayVariant, ShippingAddress } from '@showroom/contracts/orders';
import type { PaymentMethod } from '@showroom/contracts/payments';
import type { ProfileAddress } from '@showroom/contracts/accounts';
import { addressLines } from '../../accounts/account-forms';

export type AddressFields = Omit<ShippingAddress, 'country'>;

/** `new`: a card typed in now; otherwise the id of a saved card. */
export type PaymentChoice = 'new' | { savedId: string };

/**
 * What the form starts from while the shopper has typed nothing: the persona's name and e-mail
 * address, then the profile's (edited) ones and its shipping address once `GET /profile`
 * answers (decision 008).
 */
export interface CheckoutPrefill {
  name: string;
  email: string;
  address: ProfileAddress | null;
}

export interface CheckoutFormOptions {
  flow: CheckoutFlow;
  variant: InstantPayVariant | null;
  country: ShippingCountry;
  prefill: CheckoutPrefill;
  /** Saved cards as the api lists them; the default one is preselected. */
  savedCards: PaymentMethod[];
  /** Buy-now demo mode with `shouldError`: this attempt must fail like a real bug. */
  demoError: boolean;
}

/** A message for the whole form, shown on the step it belongs to. */
export interface FormError {
  message: string;
  step: CheckoutStep;
}

export const CARD_ERROR_KEYS: Readonly<Record<CardField, string>> = {
  number: 'payment.card.number',
  expiry: 'payment.card.expiry',
  cvc: 'payment.card.cvc',
};

/**
 * The checkout form of both flows: address, payment choice, field errors from the form and
 * from the api, and placing the order once per attempt (one Idempotency-Key per checkout,
 * reused by every retry until an order exists).
 */
export function useCheckoutForm(options: CheckoutFormOptions) {
  const client = useShopClient();
  const navigate = useNavigate();
  const { showError } = useErrorModal();
  // null until the shopper types: the form shows the pre-fill, which may still arrive.
  const [typed, setTyped] = useState<AddressFields | null>(null);
  const address: AddressFields = typed ?? prefilledAddress(options.prefill);
  const [card, setCard] = useState<CardFormValues>(EMPTY_CARD_FORM);
  const [picked, setPicked] = useState<PaymentChoice | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FormError | null>(null);
  const [placing, setPlacing] = useState(false);
  const idempotencyKey = useRef<string | null>(null);

  const firstSaved = options.savedCards.find((card) => card.isDefault) ?? options.savedCards[0];
  // Saved cards, when offered, come first (the default one chosen); a card deleted elsewhere
  // falls back to the form.
  const payment: PaymentChoice =
    picked !== null && (picked === 'new' || options.savedCards.some((c) => c.id === picked.savedId))
      ? picked
      : firstSaved
        ? { savedId: firstSaved.id }
        : 'new';

  const shipping = (): ShippingAddress => cleanAddress({ ...address, country: options.country });

  const addressErrors = () => validateAddress(shipping());
  const paymentErrors = (): FieldErrors => {
    if (payment !== 'new') return {};
    const found = validateCardForm(card);
    return Object.fromEntries(
      Object.entries(found).map(([field, message]) => [
        CARD_ERROR_KEYS[field as CardField],
        message,
      ]),
    );
  };

  /** Checks one step before moving on; answers whether it is complete. */
  const checkStep = (step: CheckoutStep): boolean => {
    const found = step === 'shipping' ? addressErrors() : step === 'payment' ? paymentErrors() : {};
    setErrors(found);
    setFormError(null);
    return Object.keys(found).length === 0;
  };

  const paymentInput = (): PaymentInput =>
    payment === 'new'
      ? { type: 'card', card: { ...toCardInput(card), saveCard: card.saveCard } }
      : { type: 'saved', paymentMethodId: payment.savedId };

  /**
   * Places the order and goes to its confirmation. Answers the step to show when it did not
   * work (the step of the field the api named), or null.
   */
  const placeOrder = async (): Promise<CheckoutStep | null> => {
    if (!client || placing) return null;
    const found = { ...addressErrors(), ...paymentErrors() };
    setErrors(found);
    setFormError(null);
    const invalid = Object.keys(found)[0];
    if (invalid) return stepOfError({ field: invalid });

    setPlacing(true);
    idempotencyKey.current ??= newIdempotencyKey();
    try {
      const order = await client.placeOrder(
        {
          shipping: shipping(),
          payment: paymentInput(),
          ...(options.variant ? { instantPayVariant: options.variant } : {}),
          checkoutFlow: options.flow,
        },
        {
          idempotencyKey: idempotencyKey.current,
          ...(options.demoError ? { demoError: 'buy-now' as const } : {}),
        },
      );
      trackAction(MONITORING_ACTIONS.placeOrder, {
        order_id: order.id,
        flow: options.flow,
        instant_pay_variant: order.instantPayVariant ?? undefined,
        ...amountContext(order.totalCents, order.currency),
      });
      await navigate(`/order/${encodeURIComponent(order.id)}`);
      return null;
    } catch (error) {
      setPlacing(false);
      return handleFailure(error);
    }
  };

  const handleFailure = (error: unknown): CheckoutStep | null => {
    if (options.demoError) {
      // The buy-now demo bug: an unexpected failure, shown in the error modal, which also
      // reports it to monitoring (DD_RUM.addError) — once, so it is not reported here.
      try {
        throw new Error('Buy now failed: the order could not be placed', { cause: error });
      } catch (bug) {
        showError(bug, 'Buy now failed');
      }
      return null;
    }
    if (error instanceof ApiError && error.code === 'CARD_DECLINED') {
      // One RUM error per declined place-order, with a stable message (decision 010): the
      // 402 is a handled answer, so nothing else reports it.
      trackError(new Error(FAULT_RUM_ERRORS.paymentDeclined), {
        source: 'checkout',
        code: error.code,
        flow: options.flow,
        payment: payment === 'new' ? 'card' : 'saved',
      });
    }
    if (error instanceof ApiError && error.field) {
      const field = formFieldOf(error.field);
      if (field.startsWith('shipping.') || field.startsWith('payment.')) {
        setErrors({ [field]: fieldMessage(field, error.code) });
        return stepOfError({ field, code: error.code });
      }
    }
    const step = error instanceof ApiError ? stepOfError({ code: error.code }) : 'review';
    const message = messageOf(error);
    setFormError({ message, step });
    return step;
  };

  return {
    address,
    /** Whether the shopper has typed in the address: a pre-fill must not overwrite it. */
    touched: typed !== null,
    setAddressField: (field: keyof AddressFields, value: string) =>
      setTyped((current) => ({ ...(current ?? address), [field]: value })),
    card,
    setCard,
    payment,
    setPayment: setPicked,
    errors,
    formError,
    placing,
    checkStep,
    placeOrder,
  };
}

export type CheckoutForm = ReturnType<typeof useCheckoutForm>;

/** The address fields as the pre-fill fills them. */
export function prefilledAddress(prefill: CheckoutPrefill): AddressFields {
  return { name: prefill.name, email: prefill.email, ...addressLines(prefill.address) };
}
