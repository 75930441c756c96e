import type { KeyValueStorage } from '../startup/storage-keys';
import { isExternalTarget, type RouteRules } from '../../server/route-rule-shape';

// The rules of new-build detection and the build manifest in the browser (docs/requirements.md
// ), as pure functions over injected storage and time; the browser
// wiring is build-watch.ts.

/** Manifest prefetch starts this long after load. */
export const MANIFEST_PREFETCH_DELAY_MS = 1_000;
/** A chunk-load error reloads a path at most once per this period. */
export const RELOAD_THROTTLE_MS = 10_000;
/**
 * Session storage: when each path was last reloaded for a chunk-load error, JSON
 * `{"<path>": <epoch ms>}`, so the limit holds across the reload.
 */
export const BUILD_RELOADS_KEY = 'build_reloads';

function readReloads(storage: KeyValueStorage): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(BUILD_RELOADS_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/**
 * whether `path` may be reloaded now for a chunk-load error — not when it was reloaded for
 * one less than RELOAD_THROTTLE_MS ago — and, when it may, remembers this reload. Storage that
 * cannot be written answers false: a reload that cannot be remembered could repeat forever.
 */
export function claimReload(storage: KeyValueStorage, path: string, now: number): boolean {
  const reloads = readReloads(storage);
  const last = reloads[path];
  if (typeof last === 'number' && now - last < RELOAD_THROTTLE_MS && now >= last) return false;
  // Only entries still inside the period matter: the record stays small.
  const kept = Object.fromEntries(
    Object.entries(reloads).filter(
      ([, at]) => typeof at === 'number' && now - at < RELOAD_THROTTLE_MS && now >= at,
    ),
  );
  try {
    storage.setItem(BUILD_RELOADS_KEY, JSON.stringify({ ...kept, [path]: now }));
    return true;
  } catch {
    return false;
  }
}

/** no manifest prefetch on a `slow-2g` connection (navigator.connection.effectiveType). */
export function prefetchesManifest(effectiveType: string | undefined): boolean {
  return effectiveType !== 'slow-2g';
}

/** How long to wait from `now` until MANIFEST_PREFETCH_DELAY_MS after the load event. */
export function manifestDelay(loadedAt: number, now: number): number {
  return Math.max(0, loadedAt + MANIFEST_PREFETCH_DELAY_MS - now);
}

/** Where a click on a link of this shop goes instead of its own path. */
export type LinkDecision =
  | { kind: 'redirect'; to: string; external: boolean }
  /** A new build is out: load the document rather than this build's route modules. */
  | { kind: 'document'; to: string }
  | { kind: 'none' };

/** What a click on a same-origin link to `target` does, given the manifest's rules. */
export function linkDecision(
  target: URL,
  current: URL,
  rules: RouteRules,
  newBuild: boolean,
): LinkDecision {
  if (target.origin !== current.origin) return { kind: 'none' };
  const redirect = Object.hasOwn(rules, target.pathname)
    ? rules[target.pathname]?.redirect
    : undefined;
  if (redirect)
    return { kind: 'redirect', to: redirect.to, external: isExternalTarget(redirect.to) };
  if (newBuild && target.pathname !== current.pathname)
    return { kind: 'document', to: target.href };
  return { kind: 'none' };
}
