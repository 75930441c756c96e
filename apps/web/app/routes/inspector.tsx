import { Link } from 'react-router';
import type { Route } from './+types/inspector';
import { BarChart } from '../components/bar-chart';
import { apiGet } from '../lib/api.server';
import type { MonitoringStats, SessionSummary } from '@showroom/contracts/monitoring';
import type { ChangeMarker, MarkerList, Timeline } from '@showroom/contracts/markers';
import type { ScenarioProofList } from '@showroom/contracts/scenarios';
import {
  describeMarker,
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
import { pageMeta } from '../lib/page-meta';
import { ScrollRegion } from '../components/scroll-region';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }];

export function meta() {
  return pageMeta(
    'Session inspector',
    'Recent shopper sessions and what the monitoring recorded of them: views, actions and errors.',
  );
}

/** Change markers the charts are annotated with (newest first). */
const MARKER_LIMIT = 200;
/** A scenario is "proven" when its rule holds over its latest sessions, this many at most. */
const PROOF_SESSIONS = 10;

/** Change markers as a list: under a flag's chart, and all of them under "Changes". */
function ChangeList({
  markers,
  testId = 'chart-markers',
}: {
  markers: ChangeMarker[];
  testId?: string;
}) {
  if (markers.length === 0) return null;
  return (
    <ol className="chart-markers" data-testid={testId} aria-label="Changes">
      {markers.map((marker) => (
        <li key={marker.id} data-marker-kind={marker.kind}>
          <time dateTime={new Date(marker.at).toISOString()}>{formatTime(marker.at)}</time>{' '}
          {describeMarker(marker)}
        </li>
      ))}
    </ol>
  );
}

export async function loader({ request }: Route.LoaderArgs) {
  const limit = sessionLimit(new URL(request.url).searchParams.get('limit'));
  const asked = new URL(request.url).searchParams.get('timeline');
  const timelineOf = (flag: string) =>
    apiGet<Timeline>(
      `/markers/timeline?flag=${encodeURIComponent(flag)}&limit=${TIMELINE_LIMIT}`,
      request,
    );
  const askedFlag = asked && /^[\w.-]{1,200}$/.test(asked) ? asked : null;
  const [stats, list, markers, proofs, askedTimeline] = await Promise.all([
    apiGet<MonitoringStats>('/monitoring/stats', request),
    apiGet<{ sessions: SessionSummary[] }>(`/monitoring/sessions?limit=${limit}`, request),
    apiGet<MarkerList>(`/markers?limit=${MARKER_LIMIT}`, request),
    apiGet<ScenarioProofList>(`/scenarios/proofs?sessions=${PROOF_SESSIONS}`, request),
    askedFlag ? timelineOf(askedFlag) : null,
  ]);
  // The timeline of the flag asked for (read beside the rest), else of the flag a guard acted
  // on last.
  const guarded = markers.markers.find((marker) => marker.kind === 'guard')?.subject;
  const timeline = askedTimeline ?? (guarded ? await timelineOf(guarded) : null);
  return { stats, sessions: list.sessions, limit, markers: markers.markers, proofs, timeline };
}

/** Entries of a flag's incident timeline shown (the newest). */
const TIMELINE_LIMIT = 100;

/**
 * A flag's incident timeline (docs/decisions/020-guarded-rollout-scenario.md), oldest first:
 * changes, and the browser errors of the flag's sessions between them.
 */
function IncidentTimeline({ timeline }: { timeline: Timeline }) {
  if (timeline.entries.length === 0) {
    return <p className="muted">Nothing changed and no error in the last hour.</p>;
  }
  return (
    <ol
      className="chart-markers"
      data-testid="timeline"
      aria-label={`Timeline of ${timeline.flag}`}
    >
      {timeline.entries.map((entry, index) => (
        <li
          key={entry.kind === 'marker' ? entry.marker.id : `errors-${entry.at}-${index}`}
          data-entry-kind={entry.kind === 'marker' ? entry.marker.kind : 'errors'}
          data-entry-action={entry.kind === 'marker' ? entry.marker.action : undefined}
        >
          <time dateTime={new Date(entry.at).toISOString()}>{formatTime(entry.at)}</time>{' '}
          {entry.kind === 'marker' ? (
            describeMarker(entry.marker)
          ) : (
            <span className="timeline__errors">
              {plural(entry.count, 'error')} “{entry.message}” in{' '}
              {plural(entry.sessions, 'session')} with {timeline.flag} ={' '}
              {entry.variant ?? 'both variants'}
              {entry.until > entry.at ? ` until ${formatTime(entry.until)}` : ''}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

/** /inspector: the monitored sessions the local intake stored, and live counts per variant. */
export default function InspectorPage({ loaderData }: Route.ComponentProps) {
  const { stats, sessions, updatedAt, stale } = useLiveMonitoring(loaderData);
  const { markers, proofs, timeline } = loaderData;
  const markersOf = (flag: string) => markers.filter((marker) => marker.flags.includes(flag));
  // A chart for every flag sessions carried, and for every flag changed lately.
  const chartFlags = [
    ...stats.flags,
    ...[...new Set(markers.flatMap((marker) => marker.flags))]
      .filter((key) => !stats.flags.some((flag) => flag.key === key))
      .map((key) => ({ key, variants: [] })),
  ];
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
        <p>
          <Link to="/experiments" data-testid="experiments-link">
            Experiment results
          </Link>{' '}
          <span className="muted">
            — conversion and revenue per variant, lift with 95 % intervals, sample-ratio check
          </span>
        </p>
      </header>

      <div className="inspector__charts">
        {chartFlags.map((flag) => (
          <BarChart
            key={flag.key}
            testId={`flag-chart-${flag.key}`}
            title={`Sessions per variant: ${flag.key}`}
            bars={flag.variants.map((entry) => ({ label: entry.variant, value: entry.sessions }))}
            annotations={<ChangeList markers={markersOf(flag.key)} />}
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

      <h2>Scenarios</h2>
      <p className="muted">
        Each scenario's promised signal over the latest {PROOF_SESSIONS} sessions its link opened (
        <Link to="/scenarios">catalogue</Link>).
      </p>
      <ScrollRegion label="Scenario proofs">
        <table className="inspector__table" data-testid="scenario-proofs">
          <thead>
            <tr>
              <th scope="col">Scenario</th>
              <th scope="col">Signal</th>
              <th scope="col">Measured</th>
              <th scope="col">Sessions</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {proofs.proofs.map((proof) => (
              <tr key={proof.scenarioId} data-scenario-id={proof.scenarioId}>
                <td>{proof.title}</td>
                <td>{proof.rule}</td>
                <td>
                  {proof.measuredText} <span className="muted">({proof.basis})</span>
                </td>
                <td>{proof.sessions}</td>
                <td>
                  <span
                    className={`badge ${proof.status === 'proven' ? 'badge--proven' : ''}`}
                    data-testid="proof-status"
                  >
                    {proof.status}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>

      <h2 id="timeline">Timeline</h2>
      <form method="get" className="inspector__timeline-form" action="#timeline">
        <label>
          Flag{' '}
          <select name="timeline" defaultValue={timeline?.flag ?? ''}>
            {chartFlags.map((flag) => (
              <option key={flag.key} value={flag.key}>
                {flag.key}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="submit" className="button">
          Show
        </button>
      </form>
      {timeline ? (
        <ScrollRegion label="Timeline">
          <IncidentTimeline timeline={timeline} />
        </ScrollRegion>
      ) : (
        <p className="muted">
          Choose a flag: its changes, the faults and the browser errors of its sessions, in order.
        </p>
      )}

      <h2>Changes</h2>
      {markers.length === 0 ? (
        <p className="muted">No flag change, scenario or new build recorded yet.</p>
      ) : (
        <ScrollRegion label="Changes">
          <ChangeList markers={markers} testId="markers" />
        </ScrollRegion>
      )}

      <h2>Latest sessions</h2>
      {sessions.length === 0 ? (
        <p className="muted">
          No session yet: browse the shop in another tab and its monitoring data appears here.
        </p>
      ) : (
        <ScrollRegion label="Latest sessions">
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
        </ScrollRegion>
      )}
    </section>
  );
}
