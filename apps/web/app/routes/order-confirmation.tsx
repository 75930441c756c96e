import { Link } from 'react-router';
import type { Route } from './+types/order-confirmation';
import { ErrorPage } from '../components/error-page';
import { OrderDetails, formatOrderDate } from '../components/orders/order-details';
import { ApiError } from '../lib/api-client';
import { useShopQuery } from '../lib/use-shop-query';
import { ShopQueryView } from '../components/shop-query-view';
import { pageMeta } from '../lib/page-meta';

export function meta({ params }: Route.MetaArgs) {
  return pageMeta(
    `Order ${params.orderId}`,
    'Your Showroom order: what you bought, where it ships and what you paid.',
  );
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
      order.error instanceof ApiError &&
      (order.error.code === 'NOT_FOUND' || order.error.code === 'VALIDATION_ERROR');
    if (missing) {
      return <ErrorPage status={404} message={`Order not found: ${params.orderId}`} />;
    }
  }
  if (order.status !== 'done') {
    return (
      <section className="order-page" aria-busy={order.status === 'loading'}>
        <h1>Your order</h1>
        <ShopQueryView query={order} loading="Loading your order…">
          {() => null}
        </ShopQueryView>
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
