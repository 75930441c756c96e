import type { FastifyInstance } from 'fastify';
import { FAULT_RUM_ERRORS } from '@showroom/contracts/faults';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
/**
 * RUM events shaped like @datadog/browser-rum 7 sends them on the rum track (trimmed to the
 * fields the monitoring module reads, plus a few it must ignore).
 */
type Event = Record<string, unknown>;

export const RUM_APPLICATION_ID = '00000000-0000-0000-0000-000000000017';
export const SAMPLE_SHOPPER = { id: 'a1b2c3d4', name: 'ada.lovelace', team: 'engineering' };

function base(sessionId: string, viewId: string, date: number): Event {
  return {
    date,
    application: { id: RUM_APPLICATION_ID },
    session: { id: sessionId, type: 'user', has_replay: true },
    view: { id: viewId, url: 'http://localhost:3000/department/tables', referrer: '' },
    service: 'showroom-web',
    version: '6.1.15-rc',
    source: 'browser',
    ddtags: 'sdk_version:7.16.2,env:dev,service:showroom-web,version:6.1.15-rc',
    usr: { ...SAMPLE_SHOPPER, email: 'ada@example.com', anonymous_id: 'anon-1' },
    _dd: { format_version: 2, drift: 0 },
  };
}

export function createRumView(
  overrides: {
    sessionId?: string;
    viewId?: string;
    date?: number;
    version?: number;
    url?: string;
    lcpNs?: number;
    actions?: number;
    errors?: number;
    usr?: Event | null;
    flags?: Record<string, unknown>;
  } = {},
): Event {
  const event = base(
    overrides.sessionId ?? 'session-1',
    overrides.viewId ?? 'view-1',
    overrides.date ?? 1_767_225_600_000,
  );
  event.type = 'view';
  event.view = {
    ...(event.view as Event),
    ...(overrides.url === undefined ? {} : { url: overrides.url }),
    loading_time: 412_000_000,
    first_contentful_paint: 180_000_000,
    largest_contentful_paint: overrides.lcpNs ?? 820_000_000,
    cumulative_layout_shift: 0.01,
    time_spent: 5_000_000_000,
    action: { count: overrides.actions ?? 0 },
    error: { count: overrides.errors ?? 0 },
    resource: { count: 12 },
    long_task: { count: 0 },
    is_active: true,
  };
  event._dd = { ...(event._dd as Event), document_version: overrides.version ?? 1 };
  if (overrides.usr === null) event.usr = { anonymous_id: 'anon-1' };
  else if (overrides.usr) event.usr = overrides.usr;
  if (overrides.flags) event.feature_flags = overrides.flags;
  return event;
}

export function createRumAction(
  name: string,
  overrides: {
    sessionId?: string;
    viewId?: string;
    date?: number;
    id?: string;
    context?: Event;
    flags?: Record<string, unknown>;
  } = {},
): Event {
  const event = base(
    overrides.sessionId ?? 'session-1',
    overrides.viewId ?? 'view-1',
    overrides.date ?? 1_767_225_601_000,
  );
  event.type = 'action';
  event.action = {
    id: overrides.id ?? `action-${name}-${String(overrides.date ?? 0)}`,
    type: 'custom',
    target: { name },
  };
  if (overrides.context) event.context = overrides.context;
  if (overrides.flags) event.feature_flags = overrides.flags;
  return event;
}

export function createRumError(
  message: string,
  overrides: { sessionId?: string; viewId?: string; date?: number; id?: string } = {},
): Event {
  const event = base(
    overrides.sessionId ?? 'session-1',
    overrides.viewId ?? 'view-1',
    overrides.date ?? 1_767_225_602_000,
  );
  event.type = 'error';
  event.error = {
    id: overrides.id ?? `error-${message}`,
    message,
    source: 'custom',
    type: 'Error',
    handling: 'handled',
  };
  event.context = { title: 'Could not add to cart' };
  return event;
}

export function createRumVital(
  name: string,
  overrides: { sessionId?: string; viewId?: string; date?: number } = {},
): Event {
  const event = base(
    overrides.sessionId ?? 'session-1',
    overrides.viewId ?? 'view-1',
    overrides.date ?? 1_767_225_603_000,
  );
  event.type = 'vital';
  event.vital = { id: `vital-${name}`, type: 'duration', name, duration: 250_000_000 };
  return event;
}

/**
 * A checkout session as the browser reports it (the guard tests, decision 019): a view of
 * /checkout carrying `flags`, a payment-declined error when `declined`, and the `place order`
 * action when the order was placed (after a decline too when `orderAfterDecline`: a retry).
 */
export function createCheckoutSession(options: {
  id: string;
  date: number;
  flags: Record<string, unknown>;
  declined: boolean;
  orderAfterDecline?: boolean;
}): Event[] {
  const sessionId = `session-${options.id}`;
  const viewId = `view-${options.id}`;
  const { date, flags } = options;
  const events = [createRumView({ sessionId, viewId, date, url: '/checkout', flags })];
  if (options.declined) {
    events.push(
      createRumError(FAULT_RUM_ERRORS.paymentDeclined, {
        sessionId,
        viewId,
        date: date + 1,
        id: `decline-${options.id}`,
      }),
    );
  }
  if (!options.declined || options.orderAfterDecline) {
    events.push(
      createRumAction(MONITORING_ACTIONS.placeOrder, {
        sessionId,
        viewId,
        date: date + 2,
        id: `order-${options.id}`,
        flags,
      }),
    );
  }
  return events;
}

export const ndjson = (events: unknown[]) =>
  events.map((event) => JSON.stringify(event)).join('\n');

/** Posts RUM events to the app's intake as the SDK does (the rum track) and expects 202. */
export async function sendRum(
  app: { inject: FastifyInstance['inject'] },
  events: unknown[],
): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/intake?ddforward=${encodeURIComponent('/api/v2/rum?ddsource=browser')}`,
    headers: { 'content-type': 'text/plain' },
    payload: ndjson(events),
  });
  if (res.statusCode !== 202) throw new Error(`intake answered ${res.statusCode}: ${res.body}`);
}
