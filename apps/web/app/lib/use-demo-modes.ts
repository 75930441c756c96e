import { useMemo } from 'react';
import {
  readBuyNowButtonMode,
  readNewProductPhotosMode,
  type BuyNowButtonMode,
  type NewProductPhotosMode,
} from '../startup/query-switches';
import { useStartup } from '../startup/startup-context';

export interface DemoModes {
  buyNow: BuyNowButtonMode;
  newPhotos: NewProductPhotosMode;
}

/**
 * The session-storage demo modes (docs/requirements.md §3), read only once start-up has run in the browser:
 * null during server rendering and hydration, so both render the same page.
 */
export function useDemoModes(): DemoModes | null {
  const startup = useStartup();
  return useMemo(
    () =>
      startup
        ? {
            buyNow: readBuyNowButtonMode(sessionStorage),
            newPhotos: readNewProductPhotosMode(sessionStorage),
          }
        : null,
    [startup],
  );
}
