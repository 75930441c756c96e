import { useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { ErrorModalProvider } from '../components/error-modal';
import { useRootData } from '../root';
import { startBrowserSession } from '../startup/browser-startup';
import type { StartupResult } from '../startup/orchestrator';
import { StartupContext } from '../startup/startup-context';

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
  useEffect(() => {
    if (!profileIndex || !documentProfile) return;
    let active = true;
    startBrowserSession({ profileIndex, documentProfile }).then(
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
    <StartupContext.Provider value={result}>
      <ErrorModalProvider>
        <Outlet />
      </ErrorModalProvider>
    </StartupContext.Provider>
  );
}
