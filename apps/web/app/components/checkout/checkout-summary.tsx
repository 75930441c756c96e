import { formatPrice } from '../../lib/money';
import type { Cart } from '@showroom/contracts/cart';
import { OrderTotals } from '../cart/order-totals';

/** The order as it will be charged: lines and the api's totals for the chosen country. */
export function CheckoutSummary({ cart }: { cart: Cart }) {
  return (
    <aside className="order-summary checkout-summary" aria-label="Order summary">
      <h2>Your order</h2>
      <ul className="checkout-summary__lines">
        {cart.lines.map((line) => (
          <li key={line.id} data-testid="checkout-line">
            <span>
              {line.name}
              {line.edition === 'special' ? (
                <span className="badge">Special edition</span>
              ) : null}{' '}
              <span className="muted">× {line.quantity}</span>
            </span>
            <span>{formatPrice(line.lineTotalCents)}</span>
          </li>
        ))}
      </ul>
      <OrderTotals totals={cart} />
    </aside>
  );
}
