import type { ShippingCountry } from '@showroom/contracts/shipping';
import { useMemo, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { payButtonFor } from '../checkout/checkout-steps';
import { isBuyNowState } from '../components/buy-now-button';
import { CheckoutSummary } from '../components/checkout/checkout-summary';
import { ClassicCheckout } from '../components/checkout/classic-checkout';
import { SinglePageCheckout } from '../components/checkout/single-page-checkout';
import { useCheckoutData } from '../components/checkout/use-checkout-data';
import { useCheckoutForm } from '../components/checkout/use-checkout-form';
import { useDemoFeature } from '../flags/use-demo-feature';
import type { Cart } from '@showroom/contracts/cart';
import type { CheckoutFlow, InstantPayVariant } from '@showroom/contracts/orders';
import type { PaymentMethod } from '@showroom/contracts/payments';
import { useDemoModes } from '../lib/use-demo-modes';
import { readInstantPayVariant } from '../startup/experiments';
import type { StartupResult } from '../startup/orchestrator';
import { useStartup } from '../startup/startup-context';
import { amountContext, useTrackActionOnce } from '../monitoring/track';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';

export function meta() {
  return [{ title: 'Checkout — Showroom' }];
}

/**
 * /checkout: the classic three-step flow, or the single-page flow with the newCheckoutFlow
 * feature. Everything is loaded in the browser after start-up (the api session is the
 * shopper's); prices, discount, shipping and totals are the api's.
 */
export default function CheckoutPage() {
  const startup = useStartup();
  const newFlow = useDemoFeature('newCheckoutFlow');
  const countryFirst = useDemoFeature('checkoutCountrySelector');
  const showPayments = useDemoFeature('showPayments');
  const variant = useMemo(
    () => (startup ? readInstantPayVariant(sessionStorage) : null),
    [startup],
  );
  const payButton = payButtonFor(variant);
  const data = useCheckoutData(showPayments || payButton.prefersSavedCard);

  if (data.loadError && !data.cart) {
    return (
      <CheckoutFrame>
        <div className="notice notice--error" role="alert">
          <p>{data.loadError}</p>
          <button type="button" className="button button--small" onClick={data.reload}>
            Try again
          </button>
        </div>
      </CheckoutFrame>
    );
  }
  if (!startup || !data.cart) {
    return (
      <CheckoutFrame>
        <p className="muted" aria-busy="true">
          Loading your order…
        </p>
      </CheckoutFrame>
    );
  }
  if (data.cart.lines.length === 0) {
    return (
      <CheckoutFrame>
        <div className="checkout-empty" data-testid="checkout-empty">
          <p>Your cart is empty: add something to check out.</p>
          <Link to="/" className="button button--primary">
            Continue shopping
          </Link>
        </div>
      </CheckoutFrame>
    );
  }
  return (
    <CheckoutFrame>
      <CheckoutBody
        startup={startup}
        cart={data.cart}
        country={data.country}
        onCountry={data.setCountry}
        savedCards={data.savedCards}
        flow={newFlow ? 'single-page' : 'classic'}
        countryFirst={countryFirst}
        variant={variant}
      />
    </CheckoutFrame>
  );
}

function CheckoutFrame({ children }: { children: ReactNode }) {
  return (
    <section className="checkout-page" data-testid="checkout">
      <h1>Checkout</h1>
      {children}
    </section>
  );
}

function CheckoutBody({
  startup,
  cart,
  country,
  onCountry,
  savedCards,
  flow,
  countryFirst,
  variant,
}: {
  startup: StartupResult;
  cart: Cart;
  country: ShippingCountry;
  onCountry(country: ShippingCountry): void;
  savedCards: PaymentMethod[] | null;
  flow: CheckoutFlow;
  countryFirst: boolean;
  variant: InstantPayVariant | null;
}) {
  const location = useLocation();
  const modes = useDemoModes();
  const payButton = payButtonFor(variant);
  useTrackActionOnce(MONITORING_ACTIONS.beginCheckout, {
    flow,
    instant_pay_variant: variant ?? undefined,
    ...amountContext(cart.totalCents, cart.currency),
  });
  const form = useCheckoutForm({
    flow,
    variant,
    country,
    initialEmail: startup.identity?.email ?? '',
    savedCards: savedCards ?? [],
    demoError: isBuyNowState(location.state) && (modes?.buyNow.shouldError ?? false),
  });
  const props = { form, country, countryFirst, savedCards, payButton, onCountry };
  return (
    <div className="checkout-layout" data-flow={flow} data-instant-pay={variant ?? 'none'}>
      {flow === 'single-page' ? <SinglePageCheckout {...props} /> : <ClassicCheckout {...props} />}
      <CheckoutSummary cart={cart} />
    </div>
  );
}
