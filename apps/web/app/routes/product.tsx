import type { Route } from './+types/product';
import { FinishComparer } from '../components/finish-comparer';
import { ProductDetail } from '../components/product-detail';
import { Recommendations } from '../components/recommendations';
import { loadProduct, loadRelatedProducts } from '../lib/product-loader.server';

/**
 * The product is awaited; the recommendations (below the fold) are asked for in parallel and
 * returned un-awaited, so they never delay the first byte: the page streams them in.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const related = loadRelatedProducts(request, params.product);
  const { product, edition } = await loadProduct(request, params.dept, params.product);
  return { product, edition, related };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  const name = data.edition === 'special' ? data.product.specialEdition.name : data.product.name;
  return [
    { title: `${name} — Showroom` },
    { name: 'description', content: data.product.description },
  ];
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, edition, related } = loaderData;
  return (
    <>
      <ProductDetail product={product} edition={edition} />
      <FinishComparer productId={product.id} />
      <Recommendations product={product} candidates={related} />
    </>
  );
}
