import {
  CHECKOUT_STEPS,
  STEP_LABELS,
  type CheckoutStep,
  type StepState,
} from '../../checkout/checkout-steps';

/** 1 Shipping address → 2 Payment → 3 Review; reached steps can be revisited. */
export function StepIndicator({
  state,
  disabled,
  onGoto,
}: {
  state: StepState;
  disabled: boolean;
  onGoto(step: CheckoutStep): void;
}) {
  const reached = CHECKOUT_STEPS.indexOf(state.reached);
  return (
    <ol className="step-indicator" aria-label="Checkout steps" data-testid="step-indicator">
      {CHECKOUT_STEPS.map((step, index) => {
        const current = step === state.step;
        const status = current ? 'current' : index <= reached ? 'done' : 'todo';
        return (
          <li key={step} className={`step-indicator__step step-indicator__step--${status}`}>
            <button
              type="button"
              aria-current={current ? 'step' : undefined}
              disabled={disabled || current || index > reached}
              onClick={() => onGoto(step)}
            >
              <span className="step-indicator__number">{index + 1}</span>
              {STEP_LABELS[step]}
            </button>
          </li>
        );
      })}
    </ol>
  );
}
