import { DEFAULT_SHIPPING_COUNTRY, type ShippingCountry } from '@showroom/contracts/shipping';
import { cookieValue, SESSION_COOKIE } from '@showroom/contracts/security';
import { apiGet } from '../lib/api.server';
import type { Route } from './+types/checkout';
import { useEffect, useEffectEvent, useMemo, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { payButtonFor } from '../checkout/checkout-steps';
import { isBuyNowState } from '../components/buy-now-button';
import { CheckoutSummary } from '../components/checkout/checkout-summary';
import { ClassicCheckout } from '../components/checkout/classic-checkout';
import { SinglePageCheckout } from '../components/checkout/single-page-checkout';
import { useCheckoutData } from '../components/checkout/use-checkout-data';
import { useCheckoutForm, type CheckoutPrefill } from '../components/checkout/use-checkout-form';
import { useDemoFeature } from '../flags/use-demo-feature';
import type { Cart } from '@showroom/contracts/cart';
import type { CheckoutFlow, InstantPayVariant } from '@showroom/contracts/orders';
import type { PaymentMethod } from '@showroom/contracts/payments';
import type { ProfileView } from '@showroom/contracts/accounts';
import { usePersona } from '../startup/persona';
import { useDemoModes } from '../lib/use-demo-modes';
import { readInstantPayVariant } from '../startup/experiments';
import type { StartupResult } from '../startup/orchestrator';
import { useStartup } from '../startup/startup-context';
import { amountContext, useTrackActionOnce } from '../monitoring/track';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Checkout',
    'Check out: your shipping address, your payment and a last look at your Showroom order.',
  );
}

/**
 * Whether the cart is empty, known before start-up so the first paint can say so instead of
 * "Loading your order…" (docs/architecture.md "Performance"): a browser without the api's
 * session cookie has no cart; with one, the web server asks the api as that browser. A cart with
 * lines, or an api that could not answer, is left to the browser, which loads it after start-up.
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (cookieValue(request.headers.get('cookie'), SESSION_COOKIE) === undefined) {
    return { cartEmpty: true };
  }
  try {
    const cart = await apiGet<Cart>(`/cart?country=${DEFAULT_SHIPPING_COUNTRY}`, request);
    return { cartEmpty: cart.lines.length === 0 };
  } catch {
    return { cartEmpty: false };
  }
}

/**
 * Client-side navigations come from a page that already runs start-up: the browser loads the
 * cart itself, with no request to the web server for it.
 */
export function clientLoader() {
  return { cartEmpty: false };
}

/**
 * /checkout: the classic three-step flow, or the single-page flow with the newCheckoutFlow
 * feature. The cart, profile and saved cards are loaded in the browser after start-up (the api
 * session is the shopper's); prices, discount, shipping and totals are the api's.
 */
export default function CheckoutPage({ loaderData }: Route.ComponentProps) {
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
  // Until the browser has loaded the cart, the server's answer stands.
  const knownEmpty = data.cart ? data.cart.lines.length === 0 : loaderData.cartEmpty;
  if (knownEmpty) {
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
  if (!startup || !data.cart) {
    return (
      <CheckoutFrame>
        <p className="muted" aria-busy="true">
          Loading your order…
        </p>
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
        profile={data.profile}
        flow={newFlow ? 'single-page' : 'classic'}
        countryFirst={countryFirst}
        savedPayments={showPayments}
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
  profile,
  flow,
  countryFirst,
  savedPayments,
  variant,
}: {
  startup: StartupResult;
  cart: Cart;
  country: ShippingCountry;
  onCountry(country: ShippingCountry): void;
  savedCards: PaymentMethod[] | null;
  profile: ProfileView | null;
  flow: CheckoutFlow;
  countryFirst: boolean;
  /** The saved-payments feature is on (it offers saving and reusing cards). */
  savedPayments: boolean;
  variant: InstantPayVariant | null;
}) {
  const location = useLocation();
  const modes = useDemoModes();
  const payButton = payButtonFor(variant);
  // The demo features the checkout shows, so monitoring can tell its variants apart (the
  // scenario catalogue's signals count them: docs/decisions/011-scenario-catalogue.md).
  useTrackActionOnce(MONITORING_ACTIONS.beginCheckout, {
    flow,
    country_first: countryFirst,
    saved_payments: savedPayments,
    instant_pay_variant: variant ?? undefined,
    ...amountContext(cart.totalCents, cart.currency),
  });
  // The persona the api last named (an account or the sample shopper), else start-up's.
  const persona = usePersona() ?? startup.persona;
  const prefill: CheckoutPrefill = {
    name: profile?.name || persona?.name || '',
    email: profile?.email || persona?.email || '',
    address: profile?.address ?? null,
  };
  const form = useCheckoutForm({
    flow,
    variant,
    country,
    prefill,
    savedCards: savedCards ?? [],
    demoError: isBuyNowState(location.state) && (modes?.buyNow.shouldError ?? false),
  });
  // A saved address ships to its own country: the pre-fill takes it along (re-pricing
  // shipping), unless the shopper has started typing an address of their own.
  const savedCountry = profile?.address?.country ?? null;
  const applySavedCountry = useEffectEvent((saved: ShippingCountry) => {
    if (!form.touched && saved !== country) onCountry(saved);
  });
  useEffect(() => {
    if (savedCountry) applySavedCountry(savedCountry);
  }, [savedCountry]);
  const props = { form, country, countryFirst, savedCards, payButton, onCountry };
  return (
    <div className="checkout-layout" data-flow={flow} data-instant-pay={variant ?? 'none'}>
      {flow === 'single-page' ? <SinglePageCheckout {...props} /> : <ClassicCheckout {...props} />}
      <CheckoutSummary cart={cart} />
    </div>
  );
}
