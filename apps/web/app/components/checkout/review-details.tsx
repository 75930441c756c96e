import { detectCardBrand } from '@showroom/contracts/card-brand';
import { brandLabel } from '../../checkout/card-form';
import { countryName } from '@showroom/contracts/shipping';
import type { PaymentMethod } from '@showroom/contracts/payments';
import { savedCardLabel } from './payment-section';
import type { CheckoutForm } from './use-checkout-form';

/** The classic flow's review: where it goes and how it is paid, before placing the order. */
export function ReviewDetails({
  form,
  country,
  savedCards,
}: {
  form: CheckoutForm;
  country: string;
  savedCards: PaymentMethod[];
}) {
  const { address, payment, card } = form;
  const saved = payment === 'new' ? undefined : savedCards.find((c) => c.id === payment.savedId);
  const digits = card.number.replace(/\D/g, '');
  return (
    <div className="review-details" data-testid="review-details">
      <section>
        <h3>Shipping to</h3>
        <address>
          {address.name}
          <br />
          {address.address1}
          {address.address2 ? (
            <>
              <br />
              {address.address2}
            </>
          ) : null}
          <br />
          {address.postalCode} {address.city}
          <br />
          {countryName(country)}
        </address>
        <p className="muted">Confirmation to {address.email}</p>
      </section>
      <section>
        <h3>Paying with</h3>
        <p>
          {saved
            ? savedCardLabel(saved)
            : `${brandLabel(detectCardBrand(digits))} •••• ${digits.slice(-4)}`}
        </p>
        {payment === 'new' && card.saveCard ? (
          <p className="muted">The card will be saved for next time.</p>
        ) : null}
      </section>
    </div>
  );
}
