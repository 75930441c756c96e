import { useEffect, useEffectEvent, useMemo, useState, type RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { apiClientOf, shopClientFor } from '../lib/shop-session';
import {
  createSuggestionFetcher,
  fetchSuggestions,
  nextActive,
  suggestionOptions,
  type SuggestionOption,
} from '../lib/search-suggestions';
import { useStartup } from '../startup/startup-context';

export interface SearchSuggestProps {
  /** The header's search box (search-box.tsx), which renders it without these behaviours. */
  input: RefObject<HTMLInputElement | null>;
}

const LISTBOX_ID = 'search-suggestions';
const optionId = (index: number) => `search-suggestion-${index}`;

/**
 * Suggestions while typing, loaded on the search box's first focus: makes the box a combobox
 * (WAI-ARIA "list autocomplete") over a listbox of searches and products. Arrow keys move
 * through the list, Enter opens the active entry (with none active, the form searches), Escape
 * closes the list, leaving the box or the page closes it. The calls go to this page's api
 * (start-up's backend address), debounced and cancelled by the next keystroke.
 */
export function SearchSuggest({ input }: SearchSuggestProps) {
  const startup = useStartup();
  const navigate = useNavigate();
  const { key: pageKey } = useLocation();
  const [options, setOptions] = useState<SuggestionOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Another page (a search sent, an entry picked) closes the list.
  const [page, setPage] = useState(pageKey);
  if (page !== pageKey) {
    setPage(pageKey);
    setOpen(false);
    setActive(-1);
  }
  const expanded = open && options.length > 0;

  const fetcher = useMemo(
    () =>
      startup &&
      createSuggestionFetcher({
        load: (text, signal) => fetchSuggestions(apiClientOf(shopClientFor(startup)), text, signal),
        onAnswer: (_text, answer) => {
          setOptions(answer ? suggestionOptions(answer) : []);
          setActive(-1);
          setOpen(answer !== null);
        },
      }),
    [startup],
  );
  // A new page or a new client: the call in flight is for the old one.
  useEffect(() => () => fetcher?.cancel(), [fetcher, pageKey]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const pick = (option: SuggestionOption) => {
    close();
    void navigate(option.href);
  };

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault(); // the caret stays where it is
      // A closed list opens on its first (down) or last (up) entry.
      setOpen(true);
      setActive(nextActive(expanded ? active : -1, options.length, event.key));
    } else if (event.key === 'Enter' && expanded && active >= 0) {
      event.preventDefault(); // not the form's search
      pick(options[active]!);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault(); // a search box would also clear its text
      close();
    }
  });
  const onType = useEffectEvent(() => fetcher?.update(input.current?.value ?? ''));
  const onLeave = useEffectEvent(close);

  useEffect(() => {
    const box = input.current;
    if (!box) return;
    const keydown = (event: KeyboardEvent) => onKey(event);
    const typed = () => onType();
    const left = () => onLeave();
    box.addEventListener('keydown', keydown);
    box.addEventListener('input', typed);
    box.addEventListener('blur', left);
    // What was typed before this code loaded (or before start-up had the api's address).
    typed();
    return () => {
      box.removeEventListener('keydown', keydown);
      box.removeEventListener('input', typed);
      box.removeEventListener('blur', left);
    };
  }, [input, fetcher]);

  useEffect(() => {
    const box = input.current;
    if (!box) return;
    box.setAttribute('role', 'combobox');
    box.setAttribute('aria-autocomplete', 'list');
    box.setAttribute('aria-controls', LISTBOX_ID);
    box.setAttribute('aria-expanded', String(expanded));
    if (expanded && active >= 0) box.setAttribute('aria-activedescendant', optionId(active));
    else box.removeAttribute('aria-activedescendant');
  }, [input, expanded, active]);

  return (
    <ul
      id={LISTBOX_ID}
      role="listbox"
      aria-label="Search suggestions"
      className="search-box__suggestions"
      hidden={!expanded}
      // A click on an option must not blur the box first (which closes the list).
      onMouseDown={(event) => event.preventDefault()}
    >
      {options.map((option, index) => (
        <li
          key={`${option.kind} ${option.href}`}
          id={optionId(index)}
          role="option"
          aria-selected={index === active}
          className="search-box__option"
          data-kind={option.kind}
          onClick={() => pick(option)}
        >
          {option.label}
          {option.kind === 'product' ? <span className="muted"> · product</span> : null}
        </li>
      ))}
    </ul>
  );
}
