import { Link, Outlet } from 'react-router';
import { Footer } from '../components/footer';

/**
 * The landing-page variant (docs/requirements.md §2 lcp-layout): a slim header so the hero image is the
 * largest thing in the first viewport — the page's LCP element.
 */
export default function LcpLayout() {
  return (
    <div className="page page--landing">
      <header className="landing-header">
        <Link to="/" className="navbar__brand">
          <span className="navbar__logo" aria-hidden="true">
            ◧
          </span>
          Showroom
        </Link>
        <nav aria-label="Landing">
          <Link to="/department/tables">All tables</Link>
          <Link to="/cart">Cart</Link>
        </nav>
      </header>
      <main id="main">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
