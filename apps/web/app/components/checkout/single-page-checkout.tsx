import {
  CheckoutAddressFields,
  CheckoutPaymentFields,
  type CheckoutFlowProps,
} from './checkout-flow-parts';
import { FormAlert } from './form-alert';
import { useErrorFocus } from '../accounts/use-error-focus';

/** The new checkout flow (newCheckoutFlow feature): every section on one page, one button. */
export function SinglePageCheckout({
  form,
  country,
  countryFirst,
  savedCards,
  payButton,
  onCountry,
}: CheckoutFlowProps) {
  const { placing } = form;
  // A failed order: focus moves to the first invalid field (its message is read with it) or
  // to the alert.
  const { formRef, focusError } = useErrorFocus();
  return (
    <form
      ref={formRef}
      className="checkout-flow checkout-flow--single"
      data-testid="checkout-single-page"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.placeOrder().then((failedAt) => {
          if (failedAt) focusError();
        });
      }}
    >
      <section className="checkout-section" aria-labelledby="checkout-shipping-heading">
        <h2 id="checkout-shipping-heading">
          <span className="checkout-section__number">1</span> Shipping address
        </h2>
        <CheckoutAddressFields
          form={form}
          country={country}
          countryFirst={countryFirst}
          onCountry={onCountry}
        />
      </section>
      <section className="checkout-section" aria-labelledby="checkout-payment-heading">
        <h2 id="checkout-payment-heading">
          <span className="checkout-section__number">2</span> Payment
        </h2>
        <CheckoutPaymentFields form={form} savedCards={savedCards} />
      </section>
      <FormAlert error={form.formError} />
      <div className="checkout-actions checkout-actions--single">
        <button
          type="submit"
          className="button button--primary button--large"
          data-testid="place-order"
          disabled={placing || savedCards === null}
          aria-busy={placing}
        >
          {placing ? 'Placing your order…' : payButton.label}
        </button>
      </div>
    </form>
  );
}
