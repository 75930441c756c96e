import { Link, Outlet } from 'react-router';

/** Sign-up flows: a focused card without the shop's navigation. */
export default function SignupLayout() {
  return (
    <div className="signup-layout">
      <Link to="/" className="navbar__brand signup-layout__brand">
        <span className="navbar__logo" aria-hidden="true">
          ◧
        </span>
        Showroom
      </Link>
      <main className="signup-layout__card">
        <Outlet />
      </main>
      <p className="signup-layout__back">
        <Link to="/">Back to the shop</Link>
      </p>
    </div>
  );
}
