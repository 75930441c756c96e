import { describe, expect, it } from 'vitest';
import {
  INITIAL_STEP_STATE,
  checkoutStepReducer,
  payButtonFor,
  stepOfError,
  type StepAction,
  type StepState,
} from './checkout-steps';

const run = (actions: StepAction[], from: StepState = INITIAL_STEP_STATE) =>
  actions.reduce(checkoutStepReducer, from);

describe('classic checkout steps', () => {
  it('moves forward one step at a time and stops at review', () => {
    expect(run([{ type: 'next' }])).toEqual({ step: 'payment', reached: 'payment' });
    expect(run([{ type: 'next' }, { type: 'next' }, { type: 'next' }])).toEqual({
      step: 'review',
      reached: 'review',
    });
  });

  it('goes back without forgetting how far the shopper got', () => {
    expect(run([{ type: 'next' }, { type: 'next' }, { type: 'back' }])).toEqual({
      step: 'payment',
      reached: 'review',
    });
    expect(run([{ type: 'back' }])).toEqual(INITIAL_STEP_STATE);
  });

  it('revisits only steps already reached', () => {
    expect(run([{ type: 'goto', step: 'review' }])).toEqual(INITIAL_STEP_STATE);
    const atReview = run([{ type: 'next' }, { type: 'next' }]);
    expect(run([{ type: 'goto', step: 'shipping' }], atReview)).toEqual({
      step: 'shipping',
      reached: 'review',
    });
    expect(run([{ type: 'show-error', step: 'payment' }], atReview).step).toBe('payment');
  });

  it("finds the step of an api error's field or code", () => {
    expect(stepOfError({ field: 'shipping.postalCode', code: 'VALIDATION_ERROR' })).toBe(
      'shipping',
    );
    expect(stepOfError({ field: 'payment.card.number' })).toBe('payment');
    expect(stepOfError({ code: 'CARD_DECLINED' })).toBe('payment');
    expect(stepOfError({ code: 'OUT_OF_STOCK', field: 'lines.line_1' })).toBe('review');
    expect(stepOfError({})).toBe('review');
  });
});

describe('instant_pay pay button (docs/requirements.md §4)', () => {
  it('a and no variant: the standard button', () => {
    expect(payButtonFor('a')).toEqual({
      label: 'Place order',
      oneClick: false,
      prefersSavedCard: false,
    });
    expect(payButtonFor(null)).toEqual(payButtonFor('a'));
  });

  it('b: instant pay with a saved card; c: one click', () => {
    expect(payButtonFor('b')).toMatchObject({ label: 'Instant pay', prefersSavedCard: true });
    expect(payButtonFor('c')).toEqual({
      label: 'Buy now — one click',
      oneClick: true,
      prefersSavedCard: true,
    });
  });
});
