import { Link } from 'react-router';
import type { ProductSummary } from '@showroom/contracts/catalog';
import { productPath } from '@showroom/contracts/product-paths';
import { formatPrice } from '../lib/money';
import { ProductImage } from './product-image';

/**
 * One product in a grid, under a heading of level 2 (its name is an h3). The photo is
 * decorative (empty alt): the product's name is the link's text right under it.
 */
export function ProductCard({
  product,
  priority = false,
}: {
  product: ProductSummary;
  priority?: boolean;
}) {
  return (
    <article className="product-card" data-testid="product-card">
      <Link to={productPath(product)} prefetch="intent" className="product-card__link">
        <div className="product-card__image">
          <ProductImage
            productId={product.id}
            set="std"
            view={0}
            alt=""
            sizes="(max-width: 640px) 100vw, (max-width: 1100px) 45vw, 280px"
            priority={priority}
            hint={product.imageHint}
          />
        </div>
        <h3 className="product-card__name">{product.name}</h3>
      </Link>
      <p className="product-card__price" data-testid="product-price">
        {formatPrice(product.priceCents)}
      </p>
      <p className="product-card__meta">
        {product.stock > 0 ? `${product.stock} in stock` : 'Out of stock'}
        {' · '}
        <Link to={productPath(product, 'special')} className="badge">
          {product.specialEdition.badge}
        </Link>
      </p>
    </article>
  );
}
