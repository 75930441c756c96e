import { useId, useState } from 'react';
import type { Edition } from '../lib/catalog';

/** Quantity and add-to-cart control for one product edition. */
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
  const [quantity, setQuantity] = useState(1);
  const max = Math.min(stock, 10);
  if (stock <= 0) {
    return <p className="add-to-cart add-to-cart--sold-out">Sold out</p>;
  }
  return (
    <form
      className="add-to-cart"
      data-product-id={productId}
      data-edition={edition}
      onSubmit={(event) => event.preventDefault()}
    >
      <label htmlFor={id}>Quantity</label>
      <select
        id={id}
        name="quantity"
        value={quantity}
        onChange={(event) => setQuantity(Number(event.target.value))}
      >
        {Array.from({ length: max }, (_, index) => index + 1).map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--primary" data-testid="add-to-cart">
        Add to cart
      </button>
    </form>
  );
}
