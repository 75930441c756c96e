import type { ReactNode } from 'react';
import { messageOf } from '../lib/api-errors';
import type { ShopQueryResult } from '../lib/use-shop-query';

/**
 * The loading / failed / done markup of every browser-loaded section: a quiet line while the
 * first answer is on its way, an alert with "Try again" when it failed (the last data stays
 * shown under it), and `children` with the data.
 */
export function ShopQueryView<T>({
  query,
  loading,
  children,
}: {
  query: ShopQueryResult<T>;
  /** What is loading, for the waiting line: "Loading your orders…". */
  loading: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      {query.status === 'failed' ? (
        <div className="notice notice--error" role="alert">
          <p>{messageOf(query.error)}</p>
          <button type="button" className="button button--small" onClick={query.reload}>
            Try again
          </button>
        </div>
      ) : null}
      {query.data !== null ? (
        children(query.data)
      ) : query.status === 'loading' ? (
        <p className="muted" aria-busy="true">
          {loading}
        </p>
      ) : null}
    </>
  );
}
