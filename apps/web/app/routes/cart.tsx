import { useId } from 'react';
import { Link } from 'react-router';
import { CartLineRow } from '../components/cart/cart-line-row';
import { CountrySelect } from '../components/cart/country-select';
import { OrderTotals } from '../components/cart/order-totals';
import { useCart } from '../components/cart/use-cart';
import { formatPrice } from '../lib/money';
import { pageMeta } from '../lib/page-meta';

export function meta() {
  return pageMeta(
    'Your cart',
    'The furniture in your Showroom cart, its delivery cost and total, ready for checkout.',
  );
}

/**
 * /cart: the session's cart as the api prices it. Loaded in the browser after start-up (the
 * session must be bound to the shopper first); the server renders the frame.
 */
export default function CartPage() {
  const countryId = useId();
  const { cart, loadError, busy, lineErrors, country, setCountry, setQuantity, remove, reload } =
    useCart();

  if (loadError && !cart) {
    return (
      <section className="cart-page">
        <h1>Your cart</h1>
        <div className="notice notice--error" role="alert">
          <p>{loadError}</p>
          <button type="button" className="button button--small" onClick={reload}>
            Try again
          </button>
        </div>
      </section>
    );
  }
  if (!cart) {
    return (
      <section className="cart-page" aria-busy="true">
        <h1>Your cart</h1>
        <p className="muted">Loading your cart…</p>
      </section>
    );
  }
  if (cart.lines.length === 0) {
    return (
      <section className="cart-page cart-page--empty" data-testid="cart-empty">
        <h1>Your cart</h1>
        <p>Your cart is empty.</p>
        <Link to="/" className="button button--primary">
          Continue shopping
        </Link>
      </section>
    );
  }

  const blocked = cart.lines.some((line) => !line.inStock);
  return (
    <section className="cart-page" data-testid="cart">
      <h1>
        Your cart{' '}
        <span className="muted cart-page__count">
          ({cart.itemCount} {cart.itemCount === 1 ? 'item' : 'items'})
        </span>
      </h1>
      <div className="cart-layout">
        <ul className="cart-lines" aria-label="Cart lines">
          {cart.lines.map((line) => (
            <CartLineRow
              key={line.id}
              line={line}
              busy={busy}
              error={lineErrors[line.id]}
              onQuantity={(quantity) => setQuantity(line.id, quantity)}
              onRemove={() => remove(line.id)}
            />
          ))}
        </ul>
        <aside className="order-summary" aria-label="Order summary" aria-busy={busy}>
          <h2>Order summary</h2>
          <OrderTotals
            totals={cart}
            shippingLabel={
              <>
                <label htmlFor={countryId}>Shipping to</label>{' '}
                <CountrySelect
                  id={countryId}
                  value={country}
                  disabled={busy}
                  onChange={setCountry}
                />
              </>
            }
          />
          <p className="order-summary__note muted" data-testid="free-shipping-note">
            {cart.freeShipping
              ? 'Your order ships free.'
              : `Free shipping on orders from ${formatPrice(cart.freeShippingThresholdCents)}.`}
          </p>
          {blocked ? (
            <span className="button button--primary button--block" aria-disabled="true">
              Checkout
            </span>
          ) : (
            <Link to="/checkout" className="button button--primary button--block">
              Checkout
            </Link>
          )}
          <Link to="/" className="order-summary__continue">
            Continue shopping
          </Link>
        </aside>
      </div>
    </section>
  );
}
