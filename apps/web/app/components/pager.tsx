import { Link } from 'react-router';
import { pageLinks, type ListingView } from '../lib/listing-view';

/** "Showing 25–48 of 60" with links to the previous and next page of the same view. */
export function Pager({
  view,
  total,
  pageSize,
  shown,
}: {
  view: ListingView;
  total: number;
  pageSize: number;
  /** Products on this page. */
  shown: number;
}) {
  const { from, to, previous, next } = pageLinks(view, total, pageSize, shown);
  if (previous === null && next === null) return null;
  return (
    <nav className="pager" aria-label="Pages" data-testid="pager">
      {previous !== null ? (
        <Link to={{ search: previous }} rel="prev" className="button button--small">
          Previous
        </Link>
      ) : null}
      <span className="muted">
        {shown > 0 ? `Showing ${from}–${to} of ${total}` : `Nothing on this page of ${total}`}
      </span>
      {next !== null ? (
        <Link to={{ search: next }} rel="next" className="button button--small">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
