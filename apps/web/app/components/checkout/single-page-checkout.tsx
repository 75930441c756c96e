import type { PayButton } from '../../checkout/checkout-steps';
import type { PaymentMethod } from '../../lib/shop-types';
import { AddressForm } from './address-form';
import { FormAlert } from './form-alert';
import { PaymentSection } from './payment-section';
import type { CheckoutForm } from './use-checkout-form';

/** The new checkout flow (newCheckoutFlow feature): every section on one page, one button. */
export function SinglePageCheckout({
  form,
  country,
  countryFirst,
  savedCards,
  payButton,
  onCountry,
}: {
  form: CheckoutForm;
  country: string;
  countryFirst: boolean;
  savedCards: PaymentMethod[] | null;
  payButton: PayButton;
  onCountry(country: string): void;
}) {
  const { placing } = form;
  return (
    <form
      className="checkout-flow checkout-flow--single"
      data-testid="checkout-single-page"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.placeOrder();
      }}
    >
      <section className="checkout-section" aria-labelledby="checkout-shipping-heading">
        <h2 id="checkout-shipping-heading">
          <span className="checkout-section__number">1</span> Shipping address
        </h2>
        <AddressForm
          address={form.address}
          country={country}
          countryFirst={countryFirst}
          errors={form.errors}
          disabled={placing}
          onField={form.setAddressField}
          onCountry={onCountry}
        />
      </section>
      <section className="checkout-section" aria-labelledby="checkout-payment-heading">
        <h2 id="checkout-payment-heading">
          <span className="checkout-section__number">2</span> Payment
        </h2>
        <PaymentSection
          savedCards={savedCards}
          payment={form.payment}
          card={form.card}
          errors={form.errors}
          disabled={placing}
          onPayment={form.setPayment}
          onCard={form.setCard}
        />
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
