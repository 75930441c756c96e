import { Link, Outlet } from 'react-router';

/** Sign-up flows: a focused card without the shop's navigation. */
export default function SignupLayout() {
  return (
    <div className="signup-layout">
      <header>
        <Link to="/" className="navbar__brand signup-layout__brand">
          <span className="navbar__logo" aria-hidden="true">
            ◧
          </span>
          Showroom
        </Link>
      </header>
      <main id="main" className="signup-layout__card">
        <Outlet />
      </main>
      <footer>
        <p className="signup-layout__back">
          <Link to="/">Back to the shop</Link>
        </p>
      </footer>
    </div>
  );
}
