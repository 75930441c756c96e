import { useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { ErrorModalProvider } from '../components/error-modal';
import { useRootData } from '../root';
import { browserSessionStarted, startBrowserSession } from '../startup/browser-startup';
import type { StartupResult } from '../startup/orchestrator';
import { ShopStartupContext, StartupContext } from '../startup/startup-context';

/**
 * Wraps every route except /scenarios: runs the browser start-up sequence once per page load
 * (app/startup/orchestrator.ts), after hydration so server and client agree. The document
 * carries the profile index and the predicted profile (root loader).
 */
export default function StartupLayout() {
  const root = useRootData();
  const profileIndex = root?.profileIndex;
  const documentProfile = root?.documentProfile;
  const [result, setResult] = useState<StartupResult | null>(null);
  const [shopResult, setShopResult] = useState<StartupResult | null>(null);
  useEffect(() => {
    if (!profileIndex || !documentProfile) return;
    let active = true;
    const done = startBrowserSession({ profileIndex, documentProfile });
    // The shop's calls start before the flag provider is ready (README "Faults").
    browserSessionStarted().then(
      (value) => {
        if (active) setShopResult(value);
      },
      () => {}, // reported below, by the whole sequence
    );
    done.then(
      (value) => {
        if (active) setResult(value);
        document.documentElement.dataset.startup = 'done';
      },
      (error: unknown) => {
        console.error('Start-up failed:', error);
        document.documentElement.dataset.startup = 'failed';
      },
    );
    return () => {
      active = false;
    };
  }, [profileIndex, documentProfile]);
  return (
    <ShopStartupContext.Provider value={shopResult ?? result}>
      <StartupContext.Provider value={result}>
        <ErrorModalProvider>
          <Outlet />
        </ErrorModalProvider>
      </StartupContext.Provider>
    </ShopStartupContext.Provider>
  );
}
