import { Link } from 'react-router';
import type { Edition } from '@showroom/contracts/cart';
import type { Product } from '@showroom/contracts/catalog';
import { productPath } from '@showroom/contracts/product-paths';
import { formatPrice } from '../lib/money';
import { useDemoModes } from '../lib/use-demo-modes';
import { AddToCart } from './add-to-cart';
import { ProductGallery } from './product-gallery';

/** A product page's body, for the standard product or its special edition. */
export function ProductDetail({ product, edition }: { product: Product; edition: Edition }) {
  const special = edition === 'special';
  const name = special ? product.specialEdition.name : product.name;
  const priceCents = special ? product.specialEdition.priceCents : product.priceCents;
  const stock = special ? product.specialEdition.stock : product.stock;
  // New-product-photos demo mode (docs/requirements.md §3): the second photo set for the standard edition.
  const newPhotos = useDemoModes()?.newPhotos.enabled ?? false;
  const photoSet = special ? 'se' : newPhotos ? 'new' : 'std';
  return (
    <article className="product-detail" data-testid="product-detail" data-edition={edition}>
      <ProductGallery productId={product.id} name={name} set={photoSet} hint={product.imageHint} />
      <div className="product-detail__info">
        <nav className="breadcrumbs" aria-label="Breadcrumb">
          <Link to="/">Home</Link> /{' '}
          <Link to={`/department/${product.department}`}>{capitalise(product.department)}</Link>
        </nav>
        {special ? <p className="badge badge--large">{product.specialEdition.badge}</p> : null}
        <h1 data-testid="product-name">{name}</h1>
        <p className="product-detail__price" data-testid="product-price">
          {formatPrice(priceCents)}
        </p>
        <p
          className={stock > 0 ? 'stock stock--in' : 'stock stock--out'}
          data-testid="product-stock"
        >
          {stock > 0 ? `${stock} in stock${special ? ' — limited run' : ''}` : 'Out of stock'}
        </p>
        <p>{special ? product.specialEdition.description : product.description}</p>
        {special ? <p className="muted">{product.description}</p> : null}
        <AddToCart productId={product.id} edition={edition} stock={stock} />
        <dl className="specs">
          <dt>Materials</dt>
          <dd data-testid="product-materials">{product.materials.join(', ')}</dd>
          <dt>Dimensions</dt>
          <dd>
            W {product.dimensions.widthCm} × D {product.dimensions.depthCm} × H{' '}
            {product.dimensions.heightCm} cm
          </dd>
        </dl>
        {special ? (
          <Link to={productPath(product)}>See the standard {product.name}</Link>
        ) : (
          <Link to={productPath(product, 'special')} className="special-link">
            {product.specialEdition.badge}: {product.specialEdition.name} —{' '}
            {formatPrice(product.specialEdition.priceCents)}
          </Link>
        )}
      </div>
    </article>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
