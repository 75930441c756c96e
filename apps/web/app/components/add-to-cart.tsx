import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Edition } from '@showroom/contracts/cart';
import { useShopClient } from '../lib/shop-session';
import { useDemoModes } from '../lib/use-demo-modes';
import { BuyNowButton } from './buy-now-button';
import { amountContext, trackAction } from '../monitoring/track';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import { messageOf } from '../lib/api-errors';

type AddStatus =
  | { kind: 'idle' }
  | { kind: 'adding' }
  | { kind: 'added'; quantity: number }
  | { kind: 'failed'; message: string };

/** Most units one add offers; the cart page allows up to 99 per line. */
const MAX_ADD_QUANTITY = 10;

/**
 * Quantity and add-to-cart for one product edition; with the buy-now demo mode, a Buy now
 * button too. The api checks stock and answers the whole cart (the navbar count follows).
 */
export function AddToCart({
  productId,
  edition,
  stock,
}: {
  productId: number;
  edition: Edition;
  stock: number;
}) {
  const id = useId();
  const client = useShopClient();
  const modes = useDemoModes();
  const [quantity, setQuantity] = useState(1);
  const [status, setStatus] = useState<AddStatus>({ kind: 'idle' });
  const max = Math.min(stock, MAX_ADD_QUANTITY);
  if (stock <= 0) {
    return <p className="add-to-cart add-to-cart--sold-out">Sold out</p>;
  }

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!client || status.kind === 'adding') return;
    setStatus({ kind: 'adding' });
    try {
      const cart = await client.addItem({ productId, edition, quantity });
      setStatus({ kind: 'added', quantity });
      trackAction(MONITORING_ACTIONS.addToCart, {
        product_id: productId,
        edition,
        quantity,
        ...amountContext(cart.totalCents, cart.currency),
      });
    } catch (error) {
      setStatus({
        kind: 'failed',
        message: messageOf(error),
      });
    }
  };

  return (
    <div className="add-to-cart-panel">
      <form
        className="add-to-cart"
        data-product-id={productId}
        data-edition={edition}
        onSubmit={(event) => void add(event)}
      >
        <label htmlFor={id}>Quantity</label>
        <select
          id={id}
          name="quantity"
          value={quantity}
          onChange={(event) => {
            setQuantity(Number(event.target.value));
            setStatus({ kind: 'idle' });
          }}
        >
          {Array.from({ length: max }, (_, index) => index + 1).map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <button
          type="submit"
          className="button button--primary"
          data-testid="add-to-cart"
          disabled={!client || status.kind === 'adding'}
          aria-busy={status.kind === 'adding'}
        >
          {status.kind === 'adding' ? 'Adding…' : 'Add to cart'}
        </button>
        {modes?.buyNow.enabled ? (
          <BuyNowButton item={{ productId, edition, quantity }} disabled={!client} />
        ) : null}
      </form>
      <div aria-live="polite">
        {status.kind === 'added' ? (
          <p className="notice notice--success" role="status" data-testid="add-to-cart-result">
            Added to cart{status.quantity > 1 ? ` (${status.quantity})` : ''}.{' '}
            <Link to="/cart">View cart</Link>
          </p>
        ) : null}
      </div>
      {status.kind === 'failed' ? (
        <p className="notice notice--error" role="alert" data-testid="add-to-cart-error">
          {status.message}
        </p>
      ) : null}
    </div>
  );
}
