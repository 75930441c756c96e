import { Link } from 'react-router';
import type { FormError } from './use-checkout-form';

/**
 * A failure that is not about one field: a declined card, stock gone, the api unreachable.
 * Focusable, so a failed order can move focus to it.
 */
export function FormAlert({ error }: { error: FormError | null }) {
  if (!error) return null;
  return (
    <div className="notice notice--error" role="alert" tabIndex={-1} data-testid="checkout-error">
      <p>{error.message}</p>
      {error.step === 'review' ? (
        <p>
          <Link to="/cart">Review your cart</Link>
        </p>
      ) : null}
    </div>
  );
}
