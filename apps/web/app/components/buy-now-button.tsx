import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { CartItemInput } from '@showroom/contracts/cart';
import { useShopClient } from '../lib/shop-session';
import { messageOf } from '../lib/api-errors';

/** What a checkout reached through Buy now carries in its history entry. */
export interface BuyNowLocationState {
  buyNow: true;
}

export function isBuyNowState(state: unknown): state is BuyNowLocationState {
  return (
    typeof state === 'object' && state !== null && (state as { buyNow?: unknown }).buyNow === true
  );
}

/**
 * Buy-now demo mode (docs/requirements.md §3): the cart becomes exactly this product, then checkout. With
 * `shouldError`, that checkout's order attempt fails like a real bug (see routes/checkout.tsx).
 */
export function BuyNowButton({ item, disabled }: { item: CartItemInput; disabled: boolean }) {
  const client = useShopClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const buyNow = async () => {
    if (!client || busy) return;
    setBusy(true);
    setError(null);
    try {
      await client.buyNow(item);
      const state: BuyNowLocationState = { buyNow: true };
      await navigate('/checkout', { state });
    } catch (caught) {
      setError(messageOf(caught));
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="button button--accent"
        data-testid="buy-now"
        disabled={disabled || busy}
        onClick={() => void buyNow()}
      >
        {busy ? 'One moment…' : 'Buy now'}
      </button>
      {error ? (
        <p className="notice notice--error add-to-cart__error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
