import { createContext, useContext } from 'react';
import type { StartupResult } from './orchestrator';

export const StartupContext = createContext<StartupResult | null>(null);

/** The start-up result once the sequence has run in this browser; null during SSR and before. */
export function useStartup(): StartupResult | null {
  return useContext(StartupContext);
}
