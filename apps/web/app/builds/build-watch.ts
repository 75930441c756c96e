import type { DocumentBuild } from '../../server/build-info';
import type { RouteRules } from '../../server/route-rule-shape';
import {
  claimReload,
  linkDecision,
  manifestDelay,
  prefetchesManifest,
  RELOAD_THROTTLE_MS,
} from './build-rules';

/**
 * New-build detection and the build manifest in the browser (docs/requirements.md,
 * docs/architecture.md "Builds"). A chunk of its own, loaded by the root
 * route after hydration (bundle-budget.json counts it as deferred); /demo reads its state.
 */

export type ManifestState = 'waiting' | 'skipped' | 'loaded' | 'failed';

export interface BuildWatchState {
  /** The build of this page's code: the id its first document named. */
  currentId: string | null;
  pollIntervalMs: number;
  /** The id `/builds/latest.json` answered last. */
  latestId: string | null;
  /** When the last check ended (epoch ms), answered or not. */
  lastCheck: number | null;
  lastError: string | null;
  newBuild: boolean;
  manifest: ManifestState;
  routeRules: RouteRules;
  prerendered: string[];
}

let state: BuildWatchState = {
  currentId: null,
  pollIntervalMs: 0,
  latestId: null,
  lastCheck: null,
  lastError: null,
  newBuild: false,
  manifest: 'waiting',
  routeRules: {},
  prerendered: [],
};
const listeners = new Set<() => void>();
let navigateTo: (to: string) => void = (to) => location.assign(to);
let reloading = false;

export const buildWatchState = (): BuildWatchState => state;

export function subscribeBuildWatch(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function update(patch: Partial<BuildWatchState>): void {
  state = { ...state, ...patch };
  // For the browser tests: what the watch has done so far.
  document.documentElement.dataset.buildManifest = state.manifest;
  for (const listener of listeners) listener();
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Starts once per page load (later calls do nothing): polls for a new build, listens for
 * chunk-load errors and link clicks, and prefetches the manifest 1 s after load.
 * `navigate` is React Router's, for rules that lead to another page of the shop.
 */
export function startBuildWatch(build: DocumentBuild, navigate: (to: string) => void): void {
  if (state.currentId !== null) return;
  navigateTo = navigate;
  update({ currentId: build.id, pollIntervalMs: build.pollIntervalMs });
  if (build.pollIntervalMs > 0) {
    setInterval(() => void checkForNewBuild(), build.pollIntervalMs);
  }
  // Vite's event for a dynamic import (or one of its preloads) that failed to load.
  addEventListener('vite:preloadError', () => void onChunkError());
  addEventListener('click', onClick, true);
  void afterLoad().then(prefetchManifest);
  document.documentElement.dataset.buildWatch = 'on';
}

/** asks for the latest build; answers whether it is another build than this page's. */
export async function checkForNewBuild(): Promise<boolean> {
  try {
    const response = await fetch(`/builds/latest.json?${Date.now()}`, { cache: 'no-store' });
    if (!response.ok) throw new Error(`GET /builds/latest.json answered ${response.status}`);
    const { id } = (await response.json()) as { id?: unknown };
    if (typeof id !== 'string') throw new Error('GET /builds/latest.json answered no id');
    update({
      latestId: id,
      lastCheck: Date.now(),
      lastError: null,
      newBuild: id !== state.currentId,
    });
  } catch (error) {
    // Errors are only logged; the next poll tries again.
    update({ lastCheck: Date.now(), lastError: messageOf(error) });
    console.warn(`New-build check failed: ${messageOf(error)}`);
  }
  return state.newBuild;
}

/**
 * a code chunk failed to load. After a new build (known already, or found by asking now)
 * the page reloads, at most once per 10 s per path; otherwise the caller handles the failure.
 */
async function onChunkError(): Promise<void> {
  if (reloading) return;
  const newBuild = state.newBuild || (await checkForNewBuild());
  if (!newBuild || reloading) return;
  const path = location.pathname;
  let claimed = false;
  try {
    claimed = claimReload(sessionStorage, path, Date.now());
  } catch {
    // No session storage: a reload could not be remembered, so none.
  }
  if (!claimed) {
    console.warn(
      `A code chunk failed to load after a new build; not reloading ${path} again within ${RELOAD_THROTTLE_MS / 1000} s`,
    );
    return;
  }
  reloading = true;
  console.warn(`A code chunk failed to load after a new build: reloading ${path}`);
  location.reload();
}

/** R-4.9 for client-side navigation, and R-4.20's document loads once a new build is known. */
function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = event.target instanceof Element ? event.target.closest('a') : null;
  if (!(anchor instanceof HTMLAnchorElement) || !anchor.href || anchor.hasAttribute('download')) {
    return;
  }
  if (anchor.target && anchor.target !== '_self') return;
  const decision = linkDecision(
    new URL(anchor.href),
    new URL(location.href),
    state.routeRules,
    state.newBuild,
  );
  if (decision.kind === 'none') return;
  // Before React Router's own handler, which leaves a prevented click alone.
  event.preventDefault();
  if (decision.kind === 'redirect' && !decision.external) navigateTo(decision.to);
  else location.assign(decision.to);
}

/** Resolves 1 s (MANIFEST_PREFETCH_DELAY_MS) after the window's load event. */
function afterLoad(): Promise<void> {
  return new Promise((resolve) => {
    const wait = () => {
      const navigation = performance.getEntriesByType('navigation')[0] as
        PerformanceNavigationTiming | undefined;
      const loadedAt = navigation?.loadEventStart || performance.now();
      setTimeout(resolve, manifestDelay(loadedAt, performance.now()));
    };
    if (document.readyState === 'complete') wait();
    else addEventListener('load', wait, { once: true });
  });
}

/** the manifest, unless the connection is slow-2g; a failure is only logged. */
async function prefetchManifest(): Promise<void> {
  const connection = (navigator as Navigator & { connection?: { effectiveType?: string } })
    .connection;
  if (!prefetchesManifest(connection?.effectiveType)) {
    update({ manifest: 'skipped' });
    return;
  }
  const path = `/builds/meta/${encodeURIComponent(state.currentId ?? '')}.json`;
  try {
    const response = await fetch(path);
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    const manifest = (await response.json()) as { routeRules?: RouteRules; prerendered?: string[] };
    update({
      manifest: 'loaded',
      routeRules: manifest.routeRules ?? {},
      prerendered: manifest.prerendered ?? [],
    });
  } catch (error) {
    update({ manifest: 'failed' });
    console.warn(`Build manifest not loaded: ${messageOf(error)}`);
  }
}
