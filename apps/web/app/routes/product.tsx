import type { Route } from './+types/product';
import { FinishComparer } from '../components/finish-comparer';
import { ProductDetail } from '../components/product-detail';
import { Recommendations } from '../components/recommendations';
import { loadProduct, loadRelatedProducts } from '../lib/product-loader.server';

/**
 * The product is awaited; the recommendations (below the fold) are asked for in parallel and
 * returned un-awaited, so they never delay the first byte of a page rendered for its request:
 * the page streams them in. The page cache (server/page-cache.ts) keeps the whole page, and
 * never one whose recommendations could not be loaded (each shopper who got it would report
 * the failure).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const related = loadRelatedProducts(request, params.product).then((products) => {
    if (products === null && context.pageCache) context.pageCache.keep = false;
    return products;
  });
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
