import { Link, NavLink } from 'react-router';
import type { Department } from '../lib/catalog';

export interface NavbarProps {
  departments: Department[];
  cartCount?: number;
}

export function Navbar({ departments, cartCount = 0 }: NavbarProps) {
  return (
    <header className="navbar">
      <div className="navbar__inner">
        <Link to="/" className="navbar__brand" aria-label="Showroom home">
          <span className="navbar__logo" aria-hidden="true">
            ◧
          </span>
          Showroom
        </Link>
        <nav className="navbar__departments" aria-label="Departments">
          {departments.map((department) => (
            <NavLink key={department.slug} to={`/department/${department.slug}`}>
              {department.name}
            </NavLink>
          ))}
        </nav>
        <div className="navbar__actions">
          <NavLink to="/profile" className="navbar__action">
            Profile
          </NavLink>
          <NavLink to="/cart" className="navbar__action navbar__cart" data-testid="cart-link">
            Cart{' '}
            <span className="navbar__cart-count" data-testid="cart-count">
              {cartCount}
            </span>
          </NavLink>
        </div>
      </div>
    </header>
  );
}
