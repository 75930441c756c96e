import { Link } from 'react-router';
import { formatPrice } from '../../lib/money';
import type { Order } from '@showroom/contracts/orders';
import { useShopQuery } from '../../lib/use-shop-query';
import { formatOrderDate } from '../orders/order-details';
import { ShopQueryView } from '../shop-query-view';

/** This session's orders, newest first, each linking to its order page. */
export function OrderHistory() {
  const orders = useShopQuery('orders', (client) => client.listOrders());
  return (
    <section className="profile-section" aria-labelledby="order-history-heading">
      <h2 id="order-history-heading">Your orders</h2>
      <ShopQueryView query={orders} loading="Loading your orders…">
        {(list) => <OrderTable orders={list} />}
      </ShopQueryView>
    </section>
  );
}

function OrderTable({ orders }: { orders: Order[] }) {
  if (orders.length === 0) {
    return (
      <p className="muted" data-testid="no-orders">
        No orders yet. <Link to="/">Find something you love.</Link>
      </p>
    );
  }
  return (
    <table className="order-table" data-testid="order-history">
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Order</th>
          <th scope="col">Items</th>
          <th scope="col">Total</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.id} data-testid="order-row" data-order-id={order.id}>
            <td>{formatOrderDate(order.createdAt)}</td>
            <td>
              <Link to={`/order/${encodeURIComponent(order.id)}`}>{order.id}</Link>
            </td>
            <td>{order.itemCount}</td>
            <td>{formatPrice(order.totalCents)}</td>
            <td>
              <span className="status status--on">{order.status}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
