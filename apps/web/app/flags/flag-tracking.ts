// OpenFeature `track()` for the shop's steps, callable from any page at once (docs/architecture.md
// "Feature flags"): calls made before the flag provider chunk has connected the client wait here.
// Part of the page bundle, so it stays tiny.
import type { TrackingEventDetails } from '@openfeature/web-sdk';
import type { TrackingEventName } from '@showroom/contracts/experiment-constants';

/** Details of a tracking event (OpenFeature's `TrackingEventDetails`): `value` in integer cents. */
export type TrackingDetails = TrackingEventDetails;

/** The OpenFeature client's `track`, once the flag provider chunk has connected it. */
type Tracker = (name: TrackingEventName, details: TrackingDetails) => void;

/** Tracking calls made before the provider is connected wait, at most this many. */
const PENDING_TRACKING_MAX = 20;

let tracker: Tracker | null = null;
const pendingTracking: { name: TrackingEventName; details: TrackingDetails }[] = [];

/**
 * OpenFeature `track()` for one of the shop's steps: through the client once the provider chunk
 * has connected it (its provider sends the event to the flag service, sendTrackingEvent), queued
 * until then. Never throws.
 */
export function trackFlagEvent(name: TrackingEventName, details: TrackingDetails = {}): void {
  if (tracker) {
    try {
      tracker(name, details);
    } catch {
      // Tracking is an observer: it never fails a shopper's step.
    }
    return;
  }
  if (pendingTracking.length < PENDING_TRACKING_MAX) pendingTracking.push({ name, details });
}

/** The provider chunk hands over the OpenFeature client's `track` (flag-provider-runtime.ts). */
export function connectTracker(next: Tracker): void {
  tracker = next;
  for (const { name, details } of pendingTracking.splice(0)) trackFlagEvent(name, details);
}
