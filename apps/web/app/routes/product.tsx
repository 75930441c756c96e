import type { Route } from './+types/product';
import { FinishComparer } from '../components/finish-comparer';
import { ProductDetail } from '../components/product-detail';
import { Recommendations } from '../components/recommendations';
import { loadProductPage } from '../lib/product-loader.server';

export async function loader({ params, request }: Route.LoaderArgs) {
  return loadProductPage(request, params.dept, params.product);
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
