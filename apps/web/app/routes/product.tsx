import type { Route } from './+types/product';
import { ProductDetail } from '../components/product-detail';
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
  return <ProductDetail product={loaderData.product} edition={loaderData.edition} />;
}
