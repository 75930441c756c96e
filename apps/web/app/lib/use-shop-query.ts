import { useEffect, useEffectEvent, useState } from 'react';
import { useShopClient, type ShopClient } from './shop-session';

export type ShopQuery<T> =
  | { status: 'loading'; data: null; error: null }
  | { status: 'done'; data: T; error: null }
  | { status: 'failed'; data: null; error: unknown };

/**
 * Loads data from the shop api once start-up has opened the session, again whenever `key`
 * changes or `reload()` is called. A null key waits. Answers of an older key are dropped.
 */
export function useShopQuery<T>(
  key: string | null,
  load: (client: ShopClient) => Promise<T>,
): ShopQuery<T> & { reload(): void; setData(data: T): void } {
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
        if (active) setQuery({ status: 'failed', data: null, error });
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
