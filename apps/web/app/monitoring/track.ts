// Custom monitoring events of the shop: one helper, so every key step is named the same way
// everywhere and a missing or failing monitoring SDK (ad blocker, webview) never breaks the shop.
import { useEffect, useRef } from 'react';
import {
  MONITORING_ACTIONS,
  type MonitoringActionName,
} from '@showroom/contracts/monitoring-constants';
import { FAULT_RUM_ERRORS } from '@showroom/contracts/faults';
import { TRACKING_EVENTS, type TrackingEventName } from '@showroom/contracts/experiment-constants';
import { trackFlagEvent } from '../flags/flag-tracking';

/** Custom actions carry the contract's names (MONITORING_ACTIONS), which the inspector counts by. */
/** Flat attributes of an action or error; `undefined` entries are left out. */
export type MonitoringContext = Record<string, string | number | boolean | null | undefined>;

/** What records actions and errors; `window.DD_RUM` once the SDK runs. */
export interface MonitoringSink {
  addAction(name: string, context?: object): void;
  addError(error: unknown, context?: object): void;
}

function currentSink(): MonitoringSink | undefined {
  return typeof window === 'undefined' ? undefined : window.DD_RUM;
}

function compact(context: MonitoringContext): Record<string, string | number | boolean | null> {
  const result: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(context)) if (value !== undefined) result[key] = value;
  return result;
}

/**
 * An amount as the actions carry it: integer cents (what the api answers), the same amount in
 * currency units (a measure the monitoring UI can sum), and the currency.
 */
export function amountContext(cents: number, currency: string): MonitoringContext {
  return { amount: cents / 100, amount_cents: cents, currency };
}

/**
 * The shop's steps that are also OpenFeature tracking events (docs/architecture.md
 * "Feature flags"): one call records both, so monitoring's actions and the flag service's
 * conversions never disagree about what happened.
 */
const FLAG_TRACKING: Partial<Record<MonitoringActionName, TrackingEventName>> = {
  [MONITORING_ACTIONS.addToCart]: TRACKING_EVENTS.addToCart,
  [MONITORING_ACTIONS.beginCheckout]: TRACKING_EVENTS.beginCheckout,
  [MONITORING_ACTIONS.placeOrder]: TRACKING_EVENTS.purchase,
};

/**
 * Sends a custom action (`DD_RUM.addAction`); does nothing when monitoring is not running. The
 * steps FLAG_TRACKING names are also tracked through OpenFeature, with the amount's cents as
 * the event's value (the cart's total, the order's total for a purchase).
 */
export function trackAction(
  name: MonitoringActionName,
  context: MonitoringContext = {},
  sink: MonitoringSink | undefined = currentSink(),
): void {
  try {
    sink?.addAction(name, compact(context));
  } catch {
    // Monitoring is an observer: its failure must not fail the shopper's step.
  }
  const tracking = FLAG_TRACKING[name];
  if (tracking) {
    const { amount_cents: value, currency, order_id: orderId } = context;
    trackFlagEvent(tracking, {
      ...(typeof value === 'number' ? { value } : {}),
      ...(typeof currency === 'string' ? { currency } : {}),
      ...(typeof orderId === 'string' ? { order_id: orderId } : {}),
    });
  }
}

/** Reports a handled error (`DD_RUM.addError`); does nothing when monitoring is not running. */
export function trackError(
  error: unknown,
  context: MonitoringContext = {},
  sink: MonitoringSink | undefined = currentSink(),
): void {
  try {
    sink?.addError(error, compact(context));
  } catch {
    // As above.
  }
}

const reportedFaults = new Set<string>();

/**
 * Reports a fault's effect as a RUM error with the contract's stable message (decision 010),
 * once per kind and detail (an image URL). It may come before start-up has run the SDK (an
 * image failing while the page loads): then it is sent once the SDK runs, within 30 s.
 */
export function reportFault(
  kind: 'productImageFailed' | 'recommendationsFailed',
  detail?: string,
): void {
  if (reportedFaults.has(kind + detail)) return;
  reportedFaults.add(kind + detail);
  const send = (tries: number) => {
    if (currentSink()) trackError(new Error(FAULT_RUM_ERRORS[kind]), { image_url: detail });
    else if (tries > 0) setTimeout(send, 250, tries - 1);
  };
  send(120);
}

/** Sends an action once per mounted component (a step reached, e.g. the checkout shown). */
export function useTrackActionOnce(
  name: MonitoringActionName,
  context: MonitoringContext = {},
): void {
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    trackAction(name, context);
  });
}
