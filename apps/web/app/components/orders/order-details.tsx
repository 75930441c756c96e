import { brandLabel } from '../../checkout/card-form';
import { countryName } from '@showroom/contracts/shipping';
import { formatPrice } from '../../lib/money';
import type { Order } from '@showroom/contracts/orders';
import { OrderTotals } from '../cart/order-totals';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export function formatOrderDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** An order as the api stored it: lines, totals, where it goes and how it was paid. */
export function OrderDetails({ order }: { order: Order }) {
  const { shipping } = order;
  return (
    <div className="order-details">
      <section className="order-details__lines" aria-labelledby="order-lines-heading">
        <h2 id="order-lines-heading">Items</h2>
        <table className="order-table">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Price</th>
              <th scope="col">Quantity</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((line) => (
              <tr key={`${line.productId}-${line.edition}`} data-testid="order-line">
                <td>
                  {line.name}
                  {line.edition === 'special' ? (
                    <span className="badge">Special edition</span>
                  ) : null}
                </td>
                <td>{formatPrice(line.unitPriceCents)}</td>
                <td>{line.quantity}</td>
                <td>{formatPrice(line.lineTotalCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <OrderTotals totals={order} />
      </section>
      <section className="order-details__meta">
        <div>
          <h2>Shipping to</h2>
          <address data-testid="order-address">
            {shipping.name}
            <br />
            {shipping.address1}
            {shipping.address2 ? (
              <>
                <br />
                {shipping.address2}
              </>
            ) : null}
            <br />
            {shipping.postalCode} {shipping.city}
            <br />
            {countryName(shipping.country)}
          </address>
          <p className="muted">Confirmation sent to {shipping.email}</p>
        </div>
        <div>
          <h2>Paid with</h2>
          <p data-testid="order-payment">
            {brandLabel(order.payment.brand)} •••• {order.payment.last4}
          </p>
        </div>
      </section>
    </div>
  );
}
