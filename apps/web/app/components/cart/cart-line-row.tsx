import { Link } from 'react-router';
import { productPath } from '@showroom/contracts/product-paths';
import { formatPrice } from '../../lib/money';
import type { CartLine } from '@showroom/contracts/cart';
import { ProductImage } from '../product-image';
import { QuantityStepper } from './quantity-stepper';

/** One cart line: photo, name, unit price, quantity, line total and remove. */
export function CartLineRow({
  line,
  busy,
  error,
  onQuantity,
  onRemove,
}: {
  line: CartLine;
  busy: boolean;
  error: string | undefined;
  onQuantity(quantity: number): void;
  onRemove(): void;
}) {
  const special = line.edition === 'special';
  const path = productPath({ id: line.productId, department: line.department }, line.edition);
  return (
    <li className="cart-line" data-testid="cart-line" data-product-id={line.productId}>
      <Link to={path} className="cart-line__image" tabIndex={-1} aria-hidden="true">
        <ProductImage
          productId={line.productId}
          set={special ? 'se' : 'std'}
          view={0}
          alt=""
          sizes="120px"
        />
      </Link>
      <div className="cart-line__info">
        <Link to={path} className="cart-line__name" data-testid="cart-line-name">
          {line.name}
        </Link>
        {special ? <span className="badge">Special edition</span> : null}
        <p className="cart-line__unit muted" data-testid="cart-line-unit-price">
          {formatPrice(line.unitPriceCents)} each
        </p>
        {line.inStock ? null : (
          <p className="notice notice--error">
            Only {line.stock} left in stock: lower the quantity to check out.
          </p>
        )}
        {error ? (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="cart-line__controls">
        <QuantityStepper
          key={line.quantity}
          value={line.quantity}
          label={`Quantity of ${line.name}`}
          disabled={busy}
          onChange={onQuantity}
        />
        <button type="button" className="link-button" disabled={busy} onClick={onRemove}>
          Remove<span className="visually-hidden"> {line.name}</span>
        </button>
      </div>
      <p className="cart-line__total" data-testid="cart-line-total">
        {formatPrice(line.lineTotalCents)}
      </p>
    </li>
  );
}
