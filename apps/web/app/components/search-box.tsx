import { useRef, useState, type ComponentType } from 'react';
import { Form } from 'react-router';
import type { SearchSuggestProps } from './search-suggest';

/**
 * The header's search, on every page: a GET form to /search that works without JavaScript.
 * The suggestions (combobox, debounced and cancellable api calls) are not in the page's bundle
 * (apps/web/bundle-budget.json): their code loads on the box's first focus.
 */
export function SearchBox() {
  const input = useRef<HTMLInputElement>(null);
  const [Suggest, setSuggest] = useState<ComponentType<SearchSuggestProps>>();
  const load = () => {
    import('./search-suggest').then(
      (module) => setSuggest(() => module.SearchSuggest),
      () => {}, // offline or blocked: the box still searches
    );
  };
  return (
    <Form method="get" action="/search" role="search" className="search-box">
      <input
        ref={input}
        type="search"
        name="q"
        aria-label="Search products"
        placeholder="Search products"
        autoComplete="off"
        required
        onFocus={load}
      />
      <button type="submit" className="button button--small">
        Search
      </button>
      {Suggest ? <Suggest input={input} /> : null}
    </Form>
  );
}
