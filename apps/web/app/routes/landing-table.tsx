import { Link } from 'react-router';
import type { Route } from './+types/landing-table';
import { AddToCart } from '../components/add-to-cart';
import { HeroImage } from '../components/product-image';
import { productPath } from '@showroom/contracts/product-paths';
import { formatPrice } from '../lib/money';
import { loadProduct } from '../lib/product-loader.server';
import { pageMeta } from '../lib/page-meta';

/** Only the product: the landing page shows no recommendations, so it asks for none. */
export async function loader({ request }: Route.LoaderArgs) {
  return loadProduct(request, 'tables', '10');
}

export function meta({ data }: Route.MetaArgs) {
  return data ? pageMeta(data.product.name, data.product.description) : [];
}

export default function LandingTablePage({ loaderData }: Route.ComponentProps) {
  const { product } = loaderData;
  return (
    <article className="landing" data-testid="landing">
      <section className="landing__hero">
        <HeroImage alt={`${product.name} set for dinner in a bright dining room`} />
        <div className="landing__hero-copy">
          <p className="landing__kicker">The table of the season</p>
          <h1 data-testid="product-name">{product.name}</h1>
          <p className="landing__price">{formatPrice(product.priceCents)}</p>
        </div>
      </section>
      <section className="landing__body">
        <div>
          <p className="landing__lead">{product.description}</p>
          <dl className="specs">
            <dt>Materials</dt>
            <dd>{product.materials.join(', ')}</dd>
            <dt>Dimensions</dt>
            <dd>
              W {product.dimensions.widthCm} × D {product.dimensions.depthCm} × H{' '}
              {product.dimensions.heightCm} cm
            </dd>
          </dl>
        </div>
        <div className="landing__buy">
          <p className="stock stock--in">{product.stock} in stock</p>
          <AddToCart productId={product.id} edition="standard" stock={product.stock} />
          <Link to={productPath(product, 'special')}>
            {product.specialEdition.badge}: {product.specialEdition.name}
          </Link>
        </div>
      </section>
    </article>
  );
}
