import { Link } from 'react-router';
import type { ProductSummary } from '@showroom/contracts/catalog';
import { productPath } from '../lib/catalog';
import { formatPrice } from '../lib/money';
import { ProductImage } from './product-image';

export function ProductCard({
  product,
  priority = false,
}: {
  product: ProductSummary;
  priority?: boolean;
}) {
  return (
    <article className="product-card" data-testid="product-card">
      <Link to={productPath(product)} className="product-card__link">
        <div className="product-card__image">
          <ProductImage
            productId={product.id}
            set="std"
            view={0}
            alt={product.name}
            sizes="(max-width: 640px) 100vw, (max-width: 1100px) 45vw, 280px"
            priority={priority}
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
