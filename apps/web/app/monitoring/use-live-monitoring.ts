import { useEffect, useState } from 'react';
import type { MonitoringStats, SessionSummary } from '@showroom/contracts/monitoring';
import { LIVE_REFRESH_MS } from '../lib/monitoring';
import { useShopClient } from '../lib/shop-session';

export interface LiveMonitoring {
  stats: MonitoringStats;
  sessions: SessionSummary[];
  /** Epoch ms of the last successful refresh (the server render counts as one). */
  updatedAt: number;
  /** True while the last refresh failed; the previous numbers stay shown. */
  stale: boolean;
}

/**
 * The inspector's live counts: starts from the server-rendered data, then the browser asks the
 * api itself through the one api client (so the call is traced like any shop call) every
 * LIVE_REFRESH_MS while the tab is visible. A failed refresh keeps the numbers, marked stale.
 */
export function useLiveMonitoring(initial: {
  stats: MonitoringStats;
  sessions: SessionSummary[];
  limit: number;
}): LiveMonitoring {
  const client = useShopClient();
  const { limit } = initial;
  const [live, setLive] = useState<LiveMonitoring>(() => ({
    stats: initial.stats,
    sessions: initial.sessions,
    updatedAt: initial.stats.generatedAt,
    stale: false,
  }));

  useEffect(() => {
    if (client === null) return;
    let active = true;
    const refresh = async () => {
      if (document.visibilityState === 'hidden') return;
      try {
        const [stats, list] = await Promise.all([
          client.monitoringStats(),
          client.monitoringSessions(limit),
        ]);
        if (active) {
          setLive({ stats, sessions: list.sessions, updatedAt: stats.generatedAt, stale: false });
        }
      } catch {
        if (active) setLive((previous) => ({ ...previous, stale: true }));
      }
    };
    const timer = window.setInterval(() => void refresh(), LIVE_REFRESH_MS);
    return () => {
      active = false;
      window.clearInterval(timer);
    };
  }, [client, limit]);

  return live;
}
