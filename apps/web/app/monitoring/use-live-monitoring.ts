import { useEffect, useState } from 'react';
import { LIVE_REFRESH_MS, type MonitoringStats, type SessionSummary } from '../lib/monitoring';
import { useStartup } from '../startup/startup-context';

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
 * api itself (at the profile's backend address, so the call is traced like any shop call)
 * every LIVE_REFRESH_MS while the tab is visible.
 */
export function useLiveMonitoring(initial: {
  stats: MonitoringStats;
  sessions: SessionSummary[];
  limit: number;
}): LiveMonitoring {
  const backendUrl = useStartup()?.backendUrl ?? null;
  const { limit } = initial;
  const [live, setLive] = useState<LiveMonitoring>(() => ({
    stats: initial.stats,
    sessions: initial.sessions,
    updatedAt: initial.stats.generatedAt,
    stale: false,
  }));

  useEffect(() => {
    if (backendUrl === null) return;
    let active = true;
    const refresh = async () => {
      if (document.visibilityState === 'hidden') return;
      try {
        const [stats, list] = await Promise.all([
          getJson<MonitoringStats>(`${backendUrl}/monitoring/stats`),
          getJson<{ sessions: SessionSummary[] }>(
            `${backendUrl}/monitoring/sessions?limit=${limit}`,
          ),
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
  }, [backendUrl, limit]);

  return live;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}
