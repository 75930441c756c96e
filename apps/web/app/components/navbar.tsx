import type { FocusEvent, MouseEvent } from 'react';
import { Link, NavLink } from 'react-router';
import { useCartSnapshot } from '../lib/cart-store';
import type { Department } from '@showroom/contracts/catalog';
import { usePersona } from '../startup/persona';
import { useShopClient } from '../lib/shop-session';
import { SearchBox } from './search-box';

export interface NavbarProps {
  departments: Department[];
  /** Fixed count (tests, previews); by default the count of this session's cart. */
  cartCount?: number;
}

const MENU_ID = 'navbar-menu';

/**
 * The menu's keyboard behaviour (focus into the panel, Tab kept inside, aria-expanded) is a
 * module of its own, loaded the first time the button is focused or pressed: a first visit
 * carries none of it (bundle-budget.json), and the panel works without it (see below).
 */
function enhanceMenu(event: FocusEvent<HTMLButtonElement> | MouseEvent<HTMLButtonElement>) {
  const button = event.currentTarget;
  void import('./navbar-menu').then((menu) => menu.enhanceMenu(button));
}

/**
 * The shop's header. Wide screens show everything in one row: logo, search, departments,
 * profile or sign-in, cart. Phones (app.css, "Phone header") show a compact row — logo,
 * search, cart with its count, a Menu button — and the departments and profile links move
 * into the menu panel.
 *
 * The panel is a native popover opened by its button (`popovertarget`): the browser opens and
 * closes it before any JavaScript has loaded or without any, closes it on Escape or a click
 * outside and returns focus to the button, and a browser without popovers shows it in the
 * header's flow, so the links stay reachable. On wide screens the stylesheet shows it inline.
 */
export function Navbar({ departments, cartCount }: NavbarProps) {
  // Opens the shop session once start-up has run; its answer and every cart change set the count.
  useShopClient();
  const { itemCount } = useCartSnapshot();
  const count = cartCount ?? itemCount;
  // The persona the api last named; a sign-in or sign-out anywhere on the page updates it.
  const persona = usePersona();
  const account = persona?.list === 'account' ? persona : null;
  return (
    <header className="navbar">
      <div className="navbar__inner">
        <Link to="/" className="navbar__brand" aria-label="Showroom home">
          <span className="navbar__logo" aria-hidden="true">
            ◧
          </span>
          <span className="navbar__brand-name">Showroom</span>
        </Link>
        {/* The search form's place, on every page and in the phone's compact row. */}
        <div className="navbar__search">
          <SearchBox />
        </div>
        <div id={MENU_ID} className="navbar__menu" popover="auto">
          <nav className="navbar__departments" aria-label="Departments">
            {departments.map((department) => (
              <NavLink
                key={department.slug}
                to={`/department/${department.slug}`}
                prefetch="intent"
              >
                {department.name}
              </NavLink>
            ))}
          </nav>
          <div className="navbar__actions">
            {account ? (
              <NavLink
                to="/profile"
                className="navbar__action navbar__account"
                data-testid="account-link"
              >
                {account.name}
              </NavLink>
            ) : (
              <>
                <NavLink to="/profile" className="navbar__action">
                  Profile
                </NavLink>
                <NavLink to="/signin" className="navbar__action" data-testid="sign-in-link">
                  Sign in
                </NavLink>
              </>
            )}
          </div>
        </div>
        <NavLink
          to="/cart"
          className="navbar__action navbar__cart"
          data-testid="cart-link"
          aria-label={count === null ? 'Cart' : `Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
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
        {/* Phones only. aria-expanded is kept by navbar-menu.ts once loaded. */}
        <button
          type="button"
          className="navbar__menu-button"
          popoverTarget={MENU_ID}
          aria-controls={MENU_ID}
          aria-expanded="false"
          onFocus={enhanceMenu}
          onClick={enhanceMenu}
        >
          Menu
        </button>
      </div>
    </header>
  );
}
