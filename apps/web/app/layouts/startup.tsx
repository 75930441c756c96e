import { useEffect, useState } from 'react';
import { OpenFeatureProvider } from '@openfeature/react-sdk';
import { Outlet } from 'react-router';
import { ErrorModalProvider } from '../components/error-modal';
import { useRootData } from '../root';
import { startBrowserSession } from '../startup/browser-startup';
import type { StartupResult } from '../startup/orchestrator';
import { StartupContext } from '../startup/startup-context';

/**
 * Wraps every route except /scenarios: runs the browser start-up sequence once per page load
 * (ARCHITECTURE.md "Start-up in the browser"), after hydration so server and client agree.
 */
export default function StartupLayout() {
  const profiles = useRootData()?.runtime;
  const [result, setResult] = useState<StartupResult | null>(null);
  useEffect(() => {
    if (!profiles) return;
    let active = true;
    startBrowserSession(profiles).then(
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
  }, [profiles]);
  return (
    <StartupContext.Provider value={result}>
      <OpenFeatureProvider suspendUntilReady={false}>
        <ErrorModalProvider>
          <Outlet />
        </ErrorModalProvider>
      </OpenFeatureProvider>
    </StartupContext.Provider>
  );
}
