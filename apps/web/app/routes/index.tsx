import { Link } from 'react-router';
import type { Route } from './+types/index';
import { HomeHero } from '../components/home-hero';
import { LoyaltyBanner } from '../components/loyalty-banner';
import { DepartmentImage } from '../components/product-image';
import { ProductCard } from '../components/product-card';
import { apiGet } from '../lib/api.server';
import type { ProductPage } from '@showroom/contracts/catalog';
import { loadDepartments } from '../lib/departments.server';
import { useRootData } from '../root';

/** Two featured products per department, asked in parallel; the departments are the root's. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const departments = await loadDepartments(context);
  const pages = await Promise.all(
    departments.map((department) =>
      apiGet<ProductPage>(`/departments/${department.slug}/products?limit=2`, request),
    ),
  );
  return { featured: pages.flatMap((page) => page.products) };
}

export default function IndexPage({ loaderData }: Route.ComponentProps) {
  const departments = useRootData()?.departments ?? [];
  return (
    <>
      <HomeHero />
      <section aria-labelledby="departments-heading">
        <h2 id="departments-heading">Shop by department</h2>
        <div className="department-grid">
          {departments.map((department, position) => (
            <Link
              key={department.slug}
              to={`/department/${department.slug}`}
              className="department-tile"
            >
              <DepartmentImage slug={department.slug} alt="" priority={position < 2} />
              <span className="department-tile__name">{department.name}</span>
              <span className="muted">{department.productCount} products</span>
            </Link>
          ))}
        </div>
      </section>
      {/* Shown once flags are known: below the fold, so its arrival moves nothing in view. */}
      <LoyaltyBanner />
      <section aria-labelledby="featured-heading">
        <h2 id="featured-heading">Featured</h2>
        <div className="product-grid">
          {loaderData.featured.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </div>
      </section>
    </>
  );
}
