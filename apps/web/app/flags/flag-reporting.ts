// What the shop reports to the flag service about its flags besides evaluating them
// (docs/architecture.md "Feature flags"): exposures the Datadog provider does not send (the OFREP
// provider's evaluations, the client-side instant_pay experiment) and the OpenFeature tracking
// events its providers' `track` sends. Part of the flag provider chunk; pages call
// flag-tracking.ts, which queues until this chunk connects.
import type { TrackingDetails } from './flag-tracking';
import { EXPOSURES_FORWARD_PATH, TRACKING_ROUTE } from '@showroom/contracts/experiment-constants';
// Types only: the schema modules stay out of the page bundle (apps/web/bundle-budget.json).
import type { TrackingEvent } from '@showroom/contracts/experiments';
import type { ExposureEvent } from '@showroom/contracts/exposures';

/** Where reports go; null addresses mean the profile sends none (a real Datadog site, a webview). */
export interface FlagReportingTarget {
  /** The monitoring intake (`proxy`), absolute; exposures are forwarded there. */
  intakeUrl: string | null;
  /** The shop's api base address, absolute; tracking events go to `<backendUrl>/flags/track`. */
  backendUrl: string | null;
  service: string;
}

export interface ExposureSubject {
  id: string;
  attributes: Record<string, unknown>;
}

export interface ExposureInput {
  flagKey: string;
  allocationKey: string;
  variantKey: string;
  subject: ExposureSubject;
}

/** Exposures wait at most this long before they are sent (sooner when the page is hidden). */
export const EXPOSURE_FLUSH_MS = 5_000;

let target: FlagReportingTarget | null = null;
const loggedExposures = new Set<string>();
let exposureLines: string[] = [];
let flushTimer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

/** Called by the flag provider chunk once start-up knows the profile. */
export function configureFlagReporting(next: FlagReportingTarget): void {
  target = next;
  if (listening || typeof document === 'undefined') return;
  listening = true;
  // The page may be left before the timer fires: send what is queued as it goes (sendBeacon).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushExposures(true);
  });
  window.addEventListener('pagehide', () => flushExposures(true));
}

/**
 * Queues one exposure for the intake, once per flag, allocation, variant and subject in this
 * page (as the Datadog provider's exposure cache does), and sends the queue within
 * EXPOSURE_FLUSH_MS.
 */
export function logExposure(input: ExposureInput, now: number = Date.now()): void {
  if (!target?.intakeUrl) return;
  const key = JSON.stringify([
    input.flagKey,
    input.allocationKey,
    input.variantKey,
    input.subject.id,
  ]);
  if (loggedExposures.has(key)) return;
  loggedExposures.add(key);
  const event: ExposureEvent = {
    allocation: { key: input.allocationKey },
    flag: { key: input.flagKey },
    variant: { key: input.variantKey },
    subject: { id: input.subject.id, attributes: input.subject.attributes },
    timestamp: now,
    service: target.service,
  };
  exposureLines.push(JSON.stringify(event));
  flushTimer ??= setTimeout(() => flushExposures(false), EXPOSURE_FLUSH_MS);
}

/** The intake address exposures are posted to, as the monitoring SDK forwards its tracks. */
export function exposuresUrl(intakeUrl: string): string {
  return `${intakeUrl}?ddforward=${encodeURIComponent(EXPOSURES_FORWARD_PATH)}`;
}

function flushExposures(leaving: boolean): void {
  if (flushTimer !== undefined) clearTimeout(flushTimer);
  flushTimer = undefined;
  if (exposureLines.length === 0 || !target?.intakeUrl) return;
  const body = exposureLines.join('\n');
  exposureLines = [];
  const url = exposuresUrl(target.intakeUrl);
  if (leaving && navigator.sendBeacon?.(url, new Blob([body], { type: 'text/plain' }))) return;
  // Reporting is an observer: a lost batch must not disturb the shopper.
  void fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain' },
    keepalive: true,
  }).catch(() => undefined);
}

/**
 * What an OpenFeature provider's `track` does here (decision 016): posts the event with the
 * context's targeting key to the flag service's tracking route. Without a targeting key or a
 * backend address there is nothing to attribute it to, so nothing is sent.
 */
export function sendTrackingEvent(
  name: string,
  targetingKey: string | undefined,
  details: TrackingDetails,
  now: number = Date.now(),
): void {
  if (!target?.backendUrl || !targetingKey) return;
  const { value, currency, ...rest } = details;
  // The route stores flat details only (strings, numbers, booleans).
  const extra: Record<string, string | number | boolean> = {};
  for (const [key, entry] of Object.entries(rest)) {
    if (typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean') {
      extra[key] = entry;
    }
  }
  const event: TrackingEvent = {
    targetingKey,
    name,
    timestamp: now,
    ...(typeof value === 'number' ? { value: Math.round(value) } : {}),
    ...(typeof currency === 'string' ? { currency } : {}),
    ...(Object.keys(extra).length === 0 ? {} : { details: extra }),
  };
  void fetch(`${target.backendUrl}${TRACKING_ROUTE}`, {
    method: 'POST',
    body: JSON.stringify({ events: [event] }),
    headers: { 'content-type': 'application/json' },
    // A purchase is followed at once by a navigation to the order page.
    keepalive: true,
  }).catch(() => undefined);
}
