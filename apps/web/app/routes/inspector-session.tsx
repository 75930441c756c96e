import { data, Link } from 'react-router';
import type { Route } from './+types/inspector-session';
import { ApiResponseError, apiGet } from '../lib/api.server';
import type { SessionDetail, TimelineEntry } from '@showroom/contracts/monitoring';
import type { MarkerList } from '@showroom/contracts/markers';
import {
  describeMarker,
  describeShopper,
  formatDuration,
  formatFlags,
  formatTime,
  plural,
} from '../lib/monitoring';
import type { PageErrorData } from '../lib/page-errors';
import stylesheet from '../styles/inspector.css?url';
import { pageMeta } from '../lib/page-meta';
import { ScrollRegion } from '../components/scroll-region';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }];

export function meta({ params }: Route.MetaArgs) {
  return pageMeta(
    `Session ${params.sessionId.slice(0, 8)} — Session inspector`,
    'One shopper session as the monitoring recorded it: its views and its timeline.',
  );
}

export async function loader({ params, request }: Route.LoaderArgs) {
  try {
    const detail = await apiGet<SessionDetail>(
      `/monitoring/sessions/${encodeURIComponent(params.sessionId)}`,
      request,
    );
    // The changes made while the session ran (and the minute before), beside what they caused.
    const { markers } = await apiGet<MarkerList>(
      `/markers?since=${Math.max(0, Math.floor(detail.session.firstSeen) - 60_000)}&until=${Math.ceil(detail.session.lastSeen)}`,
      request,
    );
    return { ...detail, markers };
  } catch (err) {
    if (err instanceof ApiResponseError && (err.status === 404 || err.status === 400)) {
      throw data<PageErrorData>(
        { message: `Session ${params.sessionId} not found` },
        { status: 404 },
      );
    }
    throw err;
  }
}

const KIND_LABELS: Record<TimelineEntry['kind'], string> = {
  view: 'View',
  action: 'Action',
  error: 'Error',
  vital: 'Vital',
  long_task: 'Long task',
  flag: 'Flag',
};

function describeDetail(entry: TimelineEntry): string {
  if (entry.kind === 'flag') return '';
  return Object.entries(entry.detail)
    .filter(([key, value]) => value !== null && !(entry.kind === 'view' && key === 'url'))
    .map(([key, value]) =>
      key.endsWith('Ms') && typeof value === 'number'
        ? `${key.slice(0, -2)} ${formatDuration(value)}`
        : `${key} ${String(value)}`,
    )
    .join(' · ');
}

/** /inspector/sessions/:sessionId: one session's shopper, flags, views and timeline. */
export default function InspectorSessionPage({ loaderData }: Route.ComponentProps) {
  const { session, views, timeline, markers } = loaderData;
  const entries = [
    ...timeline.map((entry) => ({ ...entry, marker: null })),
    ...markers.map((marker) => ({
      kind: 'marker' as const,
      date: marker.at,
      title: describeMarker(marker),
      detail: {},
      marker,
    })),
  ].sort((a, b) => a.date - b.date);
  return (
    <section className="inspector">
      <p className="breadcrumbs">
        <Link to="/inspector">Session inspector</Link> / {session.id}
      </p>
      <h1>Session {session.id.slice(0, 8)}</h1>
      <dl className="inspector__facts" data-testid="session-facts">
        <dt>Shopper</dt>
        <dd data-testid="session-shopper">{describeShopper(session.shopper)}</dd>
        <dt>Flags</dt>
        <dd>{formatFlags(session.flags)}</dd>
        <dt>Seen</dt>
        <dd>
          {formatTime(session.firstSeen)} – {formatTime(session.lastSeen)} UTC
        </dd>
        <dt>Counts</dt>
        <dd>
          {plural(session.viewCount, 'view')} · {plural(session.actionCount, 'action')} ·{' '}
          {plural(session.errorCount, 'error')}
          {session.hasReplay ? ' · replay recorded' : ''}
        </dd>
      </dl>

      <h2>Views</h2>
      <ScrollRegion label="Views">
        <table className="inspector__table">
          <thead>
            <tr>
              <th scope="col">Start (UTC)</th>
              <th scope="col">Page</th>
              <th scope="col">Loading</th>
              <th scope="col">FCP</th>
              <th scope="col">LCP</th>
              <th scope="col">INP</th>
              <th scope="col">CLS</th>
            </tr>
          </thead>
          <tbody>
            {views.map((view) => (
              <tr key={view.id}>
                <td>{formatTime(view.date)}</td>
                <td className="inspector__url">{view.name ?? view.url}</td>
                <td>{formatDuration(view.loadingTimeMs)}</td>
                <td>{formatDuration(view.fcpMs)}</td>
                <td>{formatDuration(view.lcpMs)}</td>
                <td>{formatDuration(view.inpMs)}</td>
                <td>{view.cls === null ? '–' : view.cls.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>

      <h2>Timeline</h2>
      <ol className="timeline" data-testid="timeline">
        {entries.map((entry, index) => (
          <li
            key={index}
            className={`timeline__entry timeline__entry--${entry.kind}`}
            data-kind={entry.kind}
          >
            <time dateTime={new Date(entry.date).toISOString()}>{formatTime(entry.date)}</time>
            <span className="timeline__kind">
              {entry.kind === 'marker' ? 'Change' : KIND_LABELS[entry.kind]}
            </span>
            <span className="timeline__title">{entry.title}</span>
            <span className="timeline__detail muted">
              {entry.kind === 'marker' ? '' : describeDetail(entry)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
