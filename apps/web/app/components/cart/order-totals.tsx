import type { ReactNode } from 'react';
import { formatPrice } from '../../lib/money';

export interface Totals {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  /** Carts say the rate; orders keep only the amount. */
  discountRate?: number;
  freeShipping?: boolean;
}

/**
 * Subtotal, discount, shipping and total, every amount as the api computed it. `shippingLabel`
 * replaces the word "Shipping" (the cart puts its country selector there).
 */
export function OrderTotals({
  totals,
  shippingLabel,
}: {
  totals: Totals;
  shippingLabel?: ReactNode;
}) {
  const rate = totals.discountRate ?? 0;
  const showDiscount = totals.discountCents > 0 || rate > 0;
  return (
    <dl className="order-totals" data-testid="order-totals">
      <dt>Subtotal</dt>
      <dd data-testid="subtotal">{formatPrice(totals.subtotalCents)}</dd>
      {showDiscount ? (
        <>
          <dt>
            Shopper discount
            {rate > 0 ? <span className="muted"> ({Math.round(rate * 100)}%)</span> : null}
          </dt>
          <dd data-testid="discount" className="order-totals__discount">
            −{formatPrice(totals.discountCents)}
          </dd>
        </>
      ) : null}
      <dt>{shippingLabel ?? 'Shipping'}</dt>
      <dd data-testid="shipping">
        {totals.shippingCents === 0 && totals.subtotalCents > 0
          ? 'Free'
          : formatPrice(totals.shippingCents)}
      </dd>
      <dt className="order-totals__total">Total</dt>
      <dd className="order-totals__total" data-testid="total">
        {formatPrice(totals.totalCents)}
      </dd>
    </dl>
  );
}
