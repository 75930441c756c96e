import { Link, NavLink, Outlet } from 'react-router';
import { Footer } from '../components/footer';
import { LoyaltyBanner } from '../components/loyalty-banner';
import { Navbar } from '../components/navbar';
import { useRootData } from '../root';

/** Department listings: the navbar, a department sidebar and the product grid. */
export default function ListingLayout() {
  const root = useRootData();
  const departments = root?.departments ?? [];
  return (
    <div className="page">
      <Navbar departments={departments} />
      <div className="listing">
        <aside className="listing__sidebar" aria-label="All departments">
          <h2 className="listing__sidebar-title">Departments</h2>
          <ul>
            {departments.map((department) => (
              <li key={department.slug}>
                <NavLink to={`/department/${department.slug}`} prefetch="intent">
                  {department.name} <span className="muted">({department.productCount})</span>
                </NavLink>
              </li>
            ))}
            <li>
              {/* A route rule's path (route-rules.json, R-4.9): it leads to a department. */}
              <Link to="/sale">Sale</Link>
            </li>
          </ul>
        </aside>
        <main id="main" className="listing__main">
          <Outlet />
          {/* Shown once flags are known (for some shoppers only): after the listing, so its
              arrival moves nothing in view, as on the home page. */}
          <LoyaltyBanner />
        </main>
      </div>
      <Footer />
    </div>
  );
}
