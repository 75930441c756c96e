import { Link } from 'react-router';
import type { Route } from './+types/inspector';
import { BarChart } from '../components/bar-chart';
import { apiGet } from '../lib/api.server';
import type { MonitoringStats, SessionSummary } from '@showroom/contracts/monitoring';
import {
  describeShopper,
  formatDuration,
  formatFlags,
  formatShare,
  formatTime,
  plural,
  sessionLimit,
} from '../lib/monitoring';
import { useLiveMonitoring } from '../monitoring/use-live-monitoring';
import stylesheet from '../styles/inspector.css?url';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }];

export function meta() {
  return [{ title: 'Session inspector — Showroom' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const limit = sessionLimit(new URL(request.url).searchParams.get('limit'));
  const [stats, list] = await Promise.all([
    apiGet<MonitoringStats>('/monitoring/stats', request),
    apiGet<{ sessions: SessionSummary[] }>(`/monitoring/sessions?limit=${limit}`, request),
  ]);
  return { stats, sessions: list.sessions, limit };
}

/** /inspector: the monitored sessions the local intake stored, and live counts per variant. */
export default function InspectorPage({ loaderData }: Route.ComponentProps) {
  const { stats, sessions, updatedAt, stale } = useLiveMonitoring(loaderData);
  const anonymousShare =
    stats.sessions.total > 0 ? stats.sessions.anonymous / stats.sessions.total : null;
  return (
    <section className="inspector">
      <header className="inspector__header">
        <h1>Session inspector</h1>
        <p className="muted" data-testid="inspector-summary">
          {plural(stats.sessions.total, 'session')} · {formatShare(anonymousShare)} anonymous ·
          updated {formatTime(updatedAt)} UTC
          {stale ? ' (the api did not answer the last refresh)' : ''}
        </p>
      </header>

      <div className="inspector__charts">
        {stats.flags.map((flag) => (
          <BarChart
            key={flag.key}
            testId={`flag-chart-${flag.key}`}
            title={`Sessions per variant: ${flag.key}`}
            bars={flag.variants.map((entry) => ({ label: entry.variant, value: entry.sessions }))}
          />
        ))}
        <BarChart
          testId="conversion-chart"
          title="Conversion to an order per instant_pay variant"
          max={1}
          bars={stats.instantPay.map((entry) => ({
            label: entry.variant,
            value: entry.conversion ?? 0,
            display: `${formatShare(entry.conversion)} (${entry.orderedSessions}/${entry.sessions}) · ${entry.shopOrders} orders`,
          }))}
        />
      </div>

      <h2>Latest sessions</h2>
      {sessions.length === 0 ? (
        <p className="muted">
          No session yet: browse the shop in another tab and its monitoring data appears here.
        </p>
      ) : (
        <div className="inspector__scroll">
          <table className="inspector__table" data-testid="session-table">
            <thead>
              <tr>
                <th scope="col">Last seen (UTC)</th>
                <th scope="col">Shopper</th>
                <th scope="col">Flags</th>
                <th scope="col">Views</th>
                <th scope="col">Errors</th>
                <th scope="col">Worst LCP</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.id} data-session-id={session.id}>
                  <td>
                    <Link to={`/inspector/sessions/${session.id}`}>
                      {formatTime(session.lastSeen)}
                    </Link>
                  </td>
                  <td>
                    {session.anonymous ? (
                      <span className="badge">anonymous</span>
                    ) : (
                      describeShopper(session.shopper)
                    )}
                  </td>
                  <td className="inspector__flags">{formatFlags(session.flags)}</td>
                  <td>{session.viewCount}</td>
                  <td>{session.errorCount}</td>
                  <td>{formatDuration(session.lcpMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
