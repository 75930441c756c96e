import { createContext, useContext } from 'react';
import type { StartupResult } from './orchestrator';

export const StartupContext = createContext<StartupResult | null>(null);

/** The start-up result once the sequence has run in this browser; null during SSR and before. */
export function useStartup(): StartupResult | null {
  return useContext(StartupContext);
}

/**
 * The start-up result before the flag provider is ready (browser-startup.ts
 * `browserSessionStarted`): for the shop's api calls, which do not depend on flags. Pages that
 * render flags keep `useStartup`.
 */
export const ShopStartupContext = createContext<StartupResult | null>(null);

export function useShopStartup(): StartupResult | null {
  return useContext(ShopStartupContext);
}
