import { Link, NavLink } from 'react-router';
import { useCartSnapshot } from '../lib/cart-store';
import type { Department } from '@showroom/contracts/catalog';
import { useShopClient } from '../lib/shop-session';

export interface NavbarProps {
  departments: Department[];
  /** Fixed count (tests, previews); by default the count of this session's cart. */
  cartCount?: number;
}

export function Navbar({ departments, cartCount }: NavbarProps) {
  // Opens the shop session once start-up has run; its answer and every cart change set the count.
  useShopClient();
  const { itemCount } = useCartSnapshot();
  const count = cartCount ?? itemCount;
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
          <NavLink
            to="/cart"
            className="navbar__action navbar__cart"
            data-testid="cart-link"
            aria-label={
              count === null ? 'Cart' : `Cart, ${count} ${count === 1 ? 'item' : 'items'}`
            }
          >
            Cart{' '}
            <span
              className="navbar__cart-count"
              data-testid="cart-count"
              data-loaded={count !== null}
              aria-hidden="true"
            >
              {count ?? ''}
            </span>
          </NavLink>
        </div>
      </div>
    </header>
  );
}
