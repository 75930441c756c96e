import type { ErrorCode } from '@showroom/contracts/error-codes';
import type { TransportErrorCode } from '../lib/api-client';
import type { InstantPayVariant } from '@showroom/contracts/orders';

/** The classic checkout's steps, in order. */
export const CHECKOUT_STEPS = ['shipping', 'payment', 'review'] as const;
export type CheckoutStep = (typeof CHECKOUT_STEPS)[number];

export const STEP_LABELS: Readonly<Record<CheckoutStep, string>> = {
  shipping: 'Shipping address',
  payment: 'Payment',
  review: 'Review & place order',
};

/** Where the classic flow is: the step shown and the furthest step reached. */
export interface StepState {
  step: CheckoutStep;
  reached: CheckoutStep;
}

export type StepAction =
  | { type: 'next' }
  | { type: 'back' }
  /** The step indicator: only steps already reached can be revisited. */
  | { type: 'goto'; step: CheckoutStep }
  /** An api error names a field on an earlier step: show that step. */
  | { type: 'show-error'; step: CheckoutStep };

export const INITIAL_STEP_STATE: StepState = { step: 'shipping', reached: 'shipping' };

const indexOf = (step: CheckoutStep) => CHECKOUT_STEPS.indexOf(step);
const at = (index: number): CheckoutStep =>
  CHECKOUT_STEPS[Math.max(0, Math.min(CHECKOUT_STEPS.length - 1, index))] ?? 'shipping';

/** The classic flow's state machine: forward one step at a time, back to any reached step. */
export function checkoutStepReducer(state: StepState, action: StepAction): StepState {
  switch (action.type) {
    case 'next': {
      const step = at(indexOf(state.step) + 1);
      return { step, reached: indexOf(step) > indexOf(state.reached) ? step : state.reached };
    }
    case 'back':
      return { ...state, step: at(indexOf(state.step) - 1) };
    case 'goto':
    case 'show-error':
      return indexOf(action.step) <= indexOf(state.reached)
        ? { ...state, step: action.step }
        : state;
  }
}

/**
 * The step holding what an api error is about: its `field` (`shipping.postalCode`,
 * `payment.card.number`) or, without one, its code (a declined card is the payment's).
 */
export function stepOfError(error: {
  field?: string | undefined;
  code?: ErrorCode | TransportErrorCode;
}): CheckoutStep {
  const field = error.field ?? '';
  if (field.startsWith('shipping.')) return 'shipping';
  if (field.startsWith('payment.')) return 'payment';
  if (error.code === 'CARD_DECLINED' || error.code === 'GATEWAY_ERROR') return 'payment';
  return 'review';
}

/** How the instant_pay experiment changes the pay button. */
export interface PayButton {
  label: string;
  /** c: the order is placed from the payment step, without a review step. */
  oneClick: boolean;
  /** b and c pay with a saved card when the shopper has one. */
  prefersSavedCard: boolean;
}

/**
 * a (and no variant drawn): the standard "Place order"; b: "Instant pay" with a saved card;
 * c: one click, placing the order at once.
 */
export function payButtonFor(variant: InstantPayVariant | null): PayButton {
  switch (variant) {
    case 'b':
      return { label: 'Instant pay', oneClick: false, prefersSavedCard: true };
    case 'c':
      return { label: 'Buy now — one click', oneClick: true, prefersSavedCard: true };
    default:
      return { label: 'Place order', oneClick: false, prefersSavedCard: false };
  }
}
