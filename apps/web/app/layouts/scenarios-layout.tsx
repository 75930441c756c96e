import { Link, Outlet } from 'react-router';

/** The presenters' scenario catalogue: no shop chrome and no start-up sequence (docs/requirements.md §2). */
export default function ScenariosLayout() {
  return (
    <div className="scenarios-layout">
      <header className="scenarios-layout__header">
        <Link to="/" className="navbar__brand">
          <span className="navbar__logo" aria-hidden="true">
            ◧
          </span>
          Showroom scenarios
        </Link>
      </header>
      <main id="main" className="main">
        <Outlet />
      </main>
    </div>
  );
}
