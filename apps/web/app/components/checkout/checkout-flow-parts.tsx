import type { ShippingCountry } from '@showroom/contracts/shipping';
import type { PayButton } from '../../checkout/checkout-steps';
import type { PaymentMethod } from '@showroom/contracts/payments';
import { AddressForm } from './address-form';
import { PaymentSection } from './payment-section';
import type { CheckoutForm } from './use-checkout-form';

/** What the checkout page hands either flow (classic or single-page). */
export interface CheckoutFlowProps {
  form: CheckoutForm;
  country: ShippingCountry;
  countryFirst: boolean;
  savedCards: PaymentMethod[] | null;
  payButton: PayButton;
  onCountry(country: ShippingCountry): void;
}

/** The shipping address fields, bound to the checkout form. */
export function CheckoutAddressFields({
  form,
  country,
  countryFirst,
  onCountry,
}: Pick<CheckoutFlowProps, 'form' | 'country' | 'countryFirst' | 'onCountry'>) {
  return (
    <AddressForm
      address={form.address}
      country={country}
      countryFirst={countryFirst}
      errors={form.errors}
      disabled={form.placing}
      onField={form.setAddressField}
      onCountry={onCountry}
    />
  );
}

/** The payment choice and card fields, bound to the checkout form. */
export function CheckoutPaymentFields({
  form,
  savedCards,
}: Pick<CheckoutFlowProps, 'form' | 'savedCards'>) {
  return (
    <PaymentSection
      savedCards={savedCards}
      payment={form.payment}
      card={form.card}
      errors={form.errors}
      disabled={form.placing}
      onPayment={form.setPayment}
      onCard={form.setCard}
    />
  );
}
