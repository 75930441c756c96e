import { useEffect, useEffectEvent, useState } from 'react';
import { useShopClient, type ShopClient } from './shop-session';

/**
 * A load's state. `data` is the last answer (kept while a new key loads and after a failed
 * reload, so a page never blanks what the shopper was looking at); `error` the last failure.
 */
export type ShopQuery<T> =
  | { status: 'loading'; data: T | null; error: null }
  | { status: 'done'; data: T; error: null }
  | { status: 'failed'; data: T | null; error: unknown };

export type ShopQueryResult<T> = ShopQuery<T> & {
  /** Loads again (a "Try again" button, or after a change elsewhere). */
  reload(): void;
  /** Replaces the data with an answer the page already has (a mutation's result). */
  setData(data: T): void;
};

/**
 * The one way pages load shop data in the browser (docs/decisions/006): `load` runs once
 * start-up has opened this page's api session (bound to the sample shopper), again whenever
 * `key` changes or `reload()` is called; a null key waits. Answers for an older key are
 * dropped. Render the states with <ShopQueryView>.
 */
export function useShopQuery<T>(
  key: string | null,
  load: (client: ShopClient) => Promise<T>,
): ShopQueryResult<T> {
  const client = useShopClient();
  const [query, setQuery] = useState<ShopQuery<T>>({ status: 'loading', data: null, error: null });
  const [revision, setRevision] = useState(0);
  const run = useEffectEvent((shop: ShopClient) => load(shop));

  useEffect(() => {
    if (!client || key === null) return;
    let active = true;
    run(client).then(
      (data) => {
        if (active) setQuery({ status: 'done', data, error: null });
      },
      (error: unknown) => {
        if (active) setQuery((previous) => ({ status: 'failed', data: previous.data, error }));
      },
    );
    return () => {
      active = false;
    };
  }, [client, key, revision]);

  return {
    ...query,
    reload: () => setRevision((value) => value + 1),
    setData: (data) => setQuery({ status: 'done', data, error: null }),
  };
}
