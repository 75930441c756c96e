import { useEffect, useReducer, useRef } from 'react';
import {
  INITIAL_STEP_STATE,
  STEP_LABELS,
  checkoutStepReducer,
  type CheckoutStep,
} from '../../checkout/checkout-steps';
import {
  CheckoutAddressFields,
  CheckoutPaymentFields,
  type CheckoutFlowProps,
} from './checkout-flow-parts';
import { FormAlert } from './form-alert';
import { ReviewDetails } from './review-details';
import { StepIndicator } from './step-indicator';
import { useErrorFocus } from '../accounts/use-error-focus';

/**
 * The classic multi-step checkout: 1 shipping address → 2 payment → 3 review & place order.
 * An api error about a field takes the shopper back to that field's step.
 */
export function ClassicCheckout({
  form,
  country,
  countryFirst,
  savedCards,
  payButton,
  onCountry,
}: CheckoutFlowProps) {
  const [state, dispatch] = useReducer(checkoutStepReducer, INITIAL_STEP_STATE);
  const { placing } = form;
  // A new step replaces the form that had focus: focus moves to the step's heading, which
  // screen readers announce. (Declared before useErrorFocus: on a failure, the error wins.)
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(state.step);
  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    heading.current?.focus();
  }, [state.step]);
  // A failed step or order: focus moves to the first invalid field (its message is read with
  // it) or to the alert.
  const { formRef, focusError } = useErrorFocus<HTMLElement>();

  const next = (step: CheckoutStep) => {
    if (form.checkStep(step)) dispatch({ type: 'next' });
    else focusError();
  };
  const place = async () => {
    const failedAt = await form.placeOrder();
    if (!failedAt) return;
    dispatch({ type: 'show-error', step: failedAt });
    focusError();
  };
  const formError = form.formError?.step === state.step ? form.formError : null;

  return (
    <div className="checkout-flow checkout-flow--classic" data-testid="checkout-classic">
      <StepIndicator
        state={state}
        disabled={placing}
        onGoto={(step) => dispatch({ type: 'goto', step })}
      />
      <section className="checkout-step" aria-labelledby="checkout-step-heading" ref={formRef}>
        <h2 id="checkout-step-heading" ref={heading} tabIndex={-1}>
          {STEP_LABELS[state.step]}
        </h2>
        <FormAlert error={formError} />
        {state.step === 'shipping' ? (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              next('shipping');
            }}
          >
            <CheckoutAddressFields
              form={form}
              country={country}
              countryFirst={countryFirst}
              onCountry={onCountry}
            />
            <div className="checkout-actions">
              <button type="submit" className="button button--primary">
                Continue to payment
              </button>
            </div>
          </form>
        ) : null}
        {state.step === 'payment' ? (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (!payButton.oneClick) next('payment');
              else if (form.checkStep('payment')) void place();
            }}
          >
            <CheckoutPaymentFields form={form} savedCards={savedCards} />
            <div className="checkout-actions">
              <button type="button" className="button" onClick={() => dispatch({ type: 'back' })}>
                Back
              </button>
              <button
                type="submit"
                className="button button--primary"
                disabled={placing || savedCards === null}
                data-testid={payButton.oneClick ? 'place-order' : undefined}
              >
                {payButton.oneClick
                  ? placing
                    ? 'Placing your order…'
                    : payButton.label
                  : 'Continue to review'}
              </button>
            </div>
          </form>
        ) : null}
        {state.step === 'review' ? (
          <>
            <ReviewDetails form={form} country={country} savedCards={savedCards ?? []} />
            <div className="checkout-actions">
              <button
                type="button"
                className="button"
                disabled={placing}
                onClick={() => dispatch({ type: 'back' })}
              >
                Back
              </button>
              <button
                type="button"
                className="button button--primary"
                data-testid="place-order"
                disabled={placing}
                aria-busy={placing}
                onClick={() => void place()}
              >
                {placing ? 'Placing your order…' : payButton.label}
              </button>
            </div>
          </>
        ) : null}
      </section>
    </div>
  );
}
