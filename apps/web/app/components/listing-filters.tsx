import { useEffect, useEffectEvent, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { ProductFacets } from '@showroom/contracts/catalog';
import { COLOUR_SWATCHES } from '@showroom/contracts/colours';
import { productQueryString, type SearchSort } from '@showroom/contracts/product-query';
import {
  PRICE_FIELDS,
  SORT_LABELS,
  facetOptions,
  formatDollars,
  hasFilters,
  readListingView,
  withoutFilters,
  type FacetOption,
  type ListingView,
} from '../lib/listing-view';

export interface ListingFiltersProps<S extends SearchSort> {
  view: ListingView<S>;
  facets: ProductFacets;
  /** The page's sorts, its default first. */
  sorts: readonly [S, ...S[]];
}

/**
 * Sort and filters of a listing or of search results: one GET form over the URL
 * (docs/decisions/009-search.md). Without JavaScript it is sent as it is (the loader redirects
 * its dollar prices to cents); with JavaScript a change (a box ticked, a price entered, another
 * sort) navigates at once to the view's canonical URL, on its first page. Counts are the api's
 * facets: each counted with every other filter applied.
 */
export function ListingFilters<S extends SearchSort>({
  view,
  facets,
  sorts,
}: ListingFiltersProps<S>) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const form = useRef<HTMLFormElement>(null);

  const apply = () => {
    if (!form.current) return;
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form.current)) {
      if (typeof value === 'string') params.append(name, value);
    }
    const target = `${pathname}${productQueryString(readListingView(params, sorts))}`;
    if (target !== `${pathname}${search}`) void navigate(target, { preventScrollReset: true });
  };
  const onChange = useEffectEvent(apply);
  // The native change event: a ticked box or a chosen sort at once, a price once entered
  // (Enter or leaving the field), not on each keystroke as React's onChange would.
  useEffect(() => {
    const element = form.current;
    const changed = () => onChange();
    element?.addEventListener('change', changed);
    return () => element?.removeEventListener('change', changed);
  }, []);

  const colours = facetOptions(facets.colours, view.colour);
  const materials = facetOptions(facets.materials, view.material);
  const range = facets.price;
  return (
    <form
      ref={form}
      method="get"
      action={pathname}
      className="filters"
      aria-label="Sort and filter"
      data-testid="listing-filters"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      {view.q ? <input type="hidden" name="q" value={view.q} /> : null}
      <div className="filters__sort">
        <label htmlFor="sort">Sort by</label>
        <select id="sort" name="sort" defaultValue={view.sort} key={view.sort}>
          {sorts.map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="filters__group" data-testid="filter-price">
        <legend>Price</legend>
        <div className="filters__prices">
          <PriceField
            name={PRICE_FIELDS.min}
            label="Min price ($)"
            cents={view.minPrice}
            hint={range.min}
          />
          <span aria-hidden="true">–</span>
          <PriceField
            name={PRICE_FIELDS.max}
            label="Max price ($)"
            cents={view.maxPrice}
            hint={range.max}
          />
        </div>
      </fieldset>
      <FacetGroup
        legend="Colour"
        name="colour"
        options={colours}
        swatch={(value) => COLOUR_SWATCHES[value]}
      />
      <FacetGroup legend="Material" name="material" options={materials} />
      <fieldset className="filters__group" data-testid="filter-stock">
        <legend>Availability</legend>
        <label className="filters__option" key={String(view.inStock)}>
          <input type="checkbox" name="inStock" value="true" defaultChecked={view.inStock} />
          In stock <span className="filters__count">({facets.inStock})</span>
        </label>
      </fieldset>
      <div className="filters__actions">
        <noscript>
          <button type="submit" className="button button--small">
            Apply
          </button>
        </noscript>
        {hasFilters(view) ? (
          <Link
            to={`${pathname}${productQueryString(withoutFilters(view))}`}
            preventScrollReset
            data-testid="clear-filters"
          >
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}

function PriceField({
  name,
  label,
  cents,
  hint,
}: {
  name: string;
  label: string;
  cents: number | undefined;
  /** The lowest or highest price of the matches, as a placeholder. */
  hint: number | null;
}) {
  return (
    <label className="filters__price">
      <span>{label}</span>
      <input
        key={cents ?? ''}
        type="number"
        name={name}
        min="0"
        step="0.01"
        inputMode="decimal"
        defaultValue={formatDollars(cents)}
        placeholder={hint === null ? undefined : `$${formatDollars(hint)}`}
      />
    </label>
  );
}

function FacetGroup<T extends string>({
  legend,
  name,
  options,
  swatch,
}: {
  legend: string;
  name: string;
  options: FacetOption<T>[];
  swatch?: (value: T) => string;
}) {
  if (options.length === 0) return null;
  return (
    <fieldset className="filters__group" data-testid={`filter-${name}`}>
      <legend>{legend}</legend>
      <div className={swatch ? 'filters__chips' : 'filters__list'}>
        {options.map((option) => (
          <label
            key={`${option.value} ${option.checked}`}
            className={swatch ? 'chip' : 'filters__option'}
          >
            <input
              type="checkbox"
              name={name}
              value={option.value}
              defaultChecked={option.checked}
            />
            {swatch ? (
              <span
                className="chip__swatch"
                style={{ background: swatch(option.value) }}
                aria-hidden="true"
              />
            ) : null}
            {option.value} <span className="filters__count">({option.count})</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
