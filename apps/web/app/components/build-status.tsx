import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { buildWatchState, checkForNewBuild, subscribeBuildWatch } from '../builds/build-watch';

const clock = (at: number | null) => (at === null ? '—' : new Date(at).toLocaleTimeString());

function interval(ms: number): string {
  if (ms <= 0) return 'off';
  return ms % 60_000 === 0 ? `every ${ms / 60_000} min` : `every ${ms / 1000} s`;
}

/**
 * /demo "Build": the build of this page's code, the latest one the server names, and the
 * manifest with its route rules (docs/requirements.md ).
 * A rule's link shows where the rule sends a shopper.
 */
export function BuildStatusCard() {
  const build = useSyncExternalStore(subscribeBuildWatch, buildWatchState, buildWatchState);
  const rules = Object.entries(build.routeRules);
  return (
    <article className="demo__card" data-testid="demo-build">
      <h2>Build</h2>
      <dl className="specs">
        <dt>This page</dt>
        <dd data-testid="demo-build-current">{build.currentId ?? '—'}</dd>
        <dt>Latest</dt>
        <dd data-testid="demo-build-latest">{build.latestId ?? 'not asked yet'}</dd>
        <dt>New build</dt>
        <dd data-testid="demo-build-new">{build.newBuild ? 'yes: reload to use it' : 'no'}</dd>
        <dt>Last check</dt>
        <dd>{clock(build.lastCheck)}</dd>
        <dt>Last error</dt>
        <dd data-testid="demo-build-error">{build.lastError ?? 'none'}</dd>
        <dt>Checks</dt>
        <dd>{interval(build.pollIntervalMs)}</dd>
        <dt>Manifest</dt>
        <dd data-testid="demo-build-manifest">
          {build.manifest}
          {build.manifest === 'loaded' ? `, ${build.prerendered.length} prerendered pages` : ''}
        </dd>
      </dl>
      {rules.length > 0 ? (
        <ul data-testid="demo-route-rules">
          {rules.map(([path, { redirect }]) => (
            <li key={path}>
              <Link to={path}>{path}</Link> → {redirect.to} ({redirect.statusCode})
            </li>
          ))}
        </ul>
      ) : null}
      <button
        type="button"
        className="button button--small"
        onClick={() => void checkForNewBuild()}
      >
        Check now
      </button>
    </article>
  );
}
