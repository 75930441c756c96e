import { Link } from 'react-router';
import type { Route } from './+types/order-confirmation';
import { ErrorPage } from '../components/error-page';
import { OrderDetails, formatOrderDate } from '../components/orders/order-details';
import { ShopApiError } from '../lib/shop-api';
import { useShopQuery } from '../lib/use-shop-query';

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `Order ${params.orderId} — Showroom` }];
}

/**
 * /order/:orderId: the confirmation after checkout, and the order page linked from the
 * profile. The order belongs to the api session, so it is loaded in the browser; another
 * session's order (or none) is the shop's 404 page.
 */
export default function OrderConfirmationPage({ params }: Route.ComponentProps) {
  const order = useShopQuery(params.orderId, (client) => client.getOrder(params.orderId));

  if (order.status === 'failed') {
    const missing =
      order.error instanceof ShopApiError &&
      (order.error.status === 404 || order.error.status === 400);
    if (missing) {
      return <ErrorPage status={404} message={`Order not found: ${params.orderId}`} />;
    }
    return (
      <section className="order-page">
        <h1>Your order</h1>
        <div className="notice notice--error" role="alert">
          <p>
            {order.error instanceof Error ? order.error.message : 'The order could not be loaded.'}
          </p>
          <button type="button" className="button button--small" onClick={order.reload}>
            Try again
          </button>
        </div>
      </section>
    );
  }
  if (order.status === 'loading') {
    return (
      <section className="order-page" aria-busy="true">
        <h1>Your order</h1>
        <p className="muted">Loading your order…</p>
      </section>
    );
  }

  const placed = order.data;
  return (
    <section className="order-page" data-testid="order-confirmation" data-order-id={placed.id}>
      <div className="order-page__header">
        <p className="order-page__check" aria-hidden="true">
          ✓
        </p>
        <div>
          <h1>Thank you for your order</h1>
          <p>
            Order number <strong data-testid="order-number">{placed.id}</strong> · placed on{' '}
            {formatOrderDate(placed.createdAt)} ·{' '}
            <span className="status status--on">{placed.status}</span>
          </p>
        </div>
      </div>
      <OrderDetails order={placed} />
      <p className="order-page__actions">
        <Link to="/" className="button button--primary">
          Continue shopping
        </Link>
        <Link to="/profile" className="button">
          Your orders
        </Link>
      </p>
    </section>
  );
}
