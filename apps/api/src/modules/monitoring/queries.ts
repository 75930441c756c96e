import type { Kysely, Selectable } from 'kysely';
import type { Database, RumSessionTable } from '../../db/schema.js';
import {
  INSTANT_PAY_FLAG,
  MONITORING_ACTIONS,
  TIMELINE_MAX,
} from '@showroom/contracts/monitoring-constants';
import {
  type MonitoringStats,
  type SessionSummary,
  type TimelineEntry,
} from '@showroom/contracts/monitoring';
import { eventEntry, nanosToMillis, toView, viewEntry } from './timeline.js';

export type MonitoringQueries = ReturnType<typeof createMonitoringQueries>;

/** Event types the session timeline shows (resources and replay segments are only counted). */
const TIMELINE_EVENT_TYPES = ['action', 'error', 'vital', 'long_task'] as const;

/** The read side of the session inspector over the rum_* tables. */
export function createMonitoringQueries(db: Kysely<Database>, now: () => number = Date.now) {
  async function summarise(rows: Selectable<RumSessionTable>[]): Promise<SessionSummary[]> {
    const ids = rows.map((row) => row.id);
    if (ids.length === 0) return [];
    const [views, events, flags] = await Promise.all([
      db
        .selectFrom('rum_views')
        .select('session_id')
        .select((eb) => [
          eb.fn.countAll<string | number>().as('n'),
          eb.fn.max('largest_contentful_paint').as('lcp'),
        ])
        .where('session_id', 'in', ids)
        .groupBy('session_id')
        .execute(),
      db
        .selectFrom('rum_events')
        .select(['session_id', 'event_type'])
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('session_id', 'in', ids)
        .where('event_type', 'in', ['action', 'error'])
        .groupBy(['session_id', 'event_type'])
        .execute(),
      db
        .selectFrom('rum_session_flags')
        .select(['session_id', 'flag_key', 'variant'])
        .where('session_id', 'in', ids)
        .orderBy('first_seen')
        .execute(),
    ]);
    const viewsOf = new Map(views.map((row) => [row.session_id, row]));
    const count = (id: string, type: string) =>
      Number(events.find((row) => row.session_id === id && row.event_type === type)?.n ?? 0);
    return rows.map((row) => {
      const sessionFlags: Record<string, string[]> = {};
      for (const flag of flags) {
        if (flag.session_id !== row.id) continue;
        (sessionFlags[flag.flag_key] ??= []).push(flag.variant);
      }
      const view = viewsOf.get(row.id);
      return {
        id: row.id,
        firstSeen: Number(row.first_seen),
        lastSeen: Number(row.last_seen),
        shopper: isAnonymous(row)
          ? null
          : { id: row.usr_id, name: row.usr_name, team: row.usr_team },
        anonymous: isAnonymous(row),
        flags: sessionFlags,
        viewCount: Number(view?.n ?? 0),
        actionCount: count(row.id, 'action'),
        errorCount: count(row.id, 'error'),
        lcpMs: nanosToMillis(view?.lcp ?? null),
        hasReplay: row.has_replay === 1,
        service: row.service,
        version: row.version,
      };
    });
  }

  return {
    /** The sessions with the latest activity, newest first. */
    async listSessions(limit: number): Promise<SessionSummary[]> {
      const rows = await db
        .selectFrom('rum_sessions')
        .selectAll()
        .orderBy('last_seen', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
      return summarise(rows);
    },

    /** One session with its views and the timeline of what happened; null when unknown. */
    async findSession(id: string) {
      const row = await db
        .selectFrom('rum_sessions')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      const [[session], viewRows, eventRows, flagRows] = await Promise.all([
        summarise([row]),
        db
          .selectFrom('rum_views')
          .selectAll()
          .where('session_id', '=', id)
          .orderBy('date')
          .execute(),
        db
          .selectFrom('rum_events')
          .select(['event_type', 'date', 'view_id', 'name', 'usr_id', 'feature_flags', 'payload'])
          .where('session_id', '=', id)
          .where('event_type', 'in', [...TIMELINE_EVENT_TYPES])
          .orderBy('date')
          .orderBy('id')
          .limit(TIMELINE_MAX)
          .execute(),
        db
          .selectFrom('rum_session_flags')
          .selectAll()
          .where('session_id', '=', id)
          .orderBy('first_seen')
          .execute(),
      ]);
      const views = viewRows.map(toView);
      const timeline: TimelineEntry[] = [
        ...viewRows.map((row, index) => viewEntry(views[index]!, row.usr_id, row.payload)),
        ...eventRows.map((event) => eventEntry(event.event_type, event)),
        ...flagRows.map((flag): TimelineEntry => ({
          kind: 'flag',
          date: Number(flag.first_seen),
          viewId: null,
          title: `${flag.flag_key} = ${flag.variant}`,
          usrId: null,
          usr: null,
          featureFlags: null,
          detail: { flag: flag.flag_key, variant: flag.variant },
        })),
      ].sort((a, b) => a.date - b.date);
      return { session: session!, views, timeline: timeline.slice(0, TIMELINE_MAX) };
    },

    /** Live counts: sessions per flag variant, and conversion to an order per instant_pay variant. */
    async stats(): Promise<MonitoringStats> {
      const [totals, flagRows, orderActions, shopOrders] = await Promise.all([
        db
          .selectFrom('rum_sessions')
          .select((eb) => [
            eb.fn.countAll<string | number>().as('total'),
            eb.fn
              .sum<string | number | null>(
                eb
                  .case()
                  .when(
                    eb.and([
                      eb('usr_id', 'is', null),
                      eb('usr_name', 'is', null),
                      eb('usr_email', 'is', null),
                    ]),
                  )
                  .then(eb.lit(1))
                  .else(eb.lit(0))
                  .end(),
              )
              .as('anonymous'),
          ])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('rum_session_flags')
          .select(['flag_key', 'variant'])
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .groupBy(['flag_key', 'variant'])
          .orderBy('flag_key')
          .orderBy('variant')
          .execute(),
        db
          .selectFrom('rum_events')
          .select(['session_id', 'feature_flags', 'payload'])
          .where('event_type', '=', 'action')
          .where('name', '=', MONITORING_ACTIONS.placeOrder)
          .execute(),
        // The shop's own record of each order's variant (orders module, migration 003-shop).
        db
          .selectFrom('orders')
          .select('instant_pay_variant')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('instant_pay_variant', 'is not', null)
          .groupBy('instant_pay_variant')
          .execute(),
      ]);

      const flags = new Map<string, { variant: string; sessions: number }[]>();
      for (const row of flagRows) {
        const list = flags.get(row.flag_key) ?? [];
        list.push({ variant: row.variant, sessions: Number(row.n) });
        flags.set(row.flag_key, list);
      }

      // An order counts for the variant its action names (context, then feature_flags), else
      // for the last instant_pay variant its session saw.
      const lastVariant = await lastInstantPayVariants(
        orderActions.map((action) => action.session_id).filter((id): id is string => id !== null),
      );
      const ordered = new Map<string, Set<string>>();
      for (const action of orderActions) {
        if (action.session_id === null) continue;
        const variant =
          instantPayOf(action.payload, action.feature_flags) ?? lastVariant.get(action.session_id);
        if (variant === undefined) continue;
        const sessions = ordered.get(variant) ?? new Set<string>();
        sessions.add(action.session_id);
        ordered.set(variant, sessions);
      }
      const shop = new Map(shopOrders.map((row) => [row.instant_pay_variant, Number(row.n)]));
      const variants = new Set([
        ...(flags.get(INSTANT_PAY_FLAG) ?? []).map((entry) => entry.variant),
        ...ordered.keys(),
        ...[...shop.keys()].filter((key): key is string => key !== null),
      ]);
      const instantPay = [...variants].sort().map((variant) => {
        const sessions =
          flags.get(INSTANT_PAY_FLAG)?.find((entry) => entry.variant === variant)?.sessions ?? 0;
        const orderedSessions = ordered.get(variant)?.size ?? 0;
        return {
          variant,
          sessions,
          orderedSessions,
          conversion: sessions > 0 ? Math.min(1, orderedSessions / sessions) : null,
          shopOrders: shop.get(variant) ?? 0,
        };
      });

      const total = Number(totals.total);
      return {
        generatedAt: now(),
        sessions: { total, anonymous: Number(totals.anonymous ?? 0) },
        flags: [...flags.entries()].map(([key, list]) => ({ key, variants: list })),
        instantPay,
      };
    },
  };

  async function lastInstantPayVariants(sessionIds: string[]): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    if (sessionIds.length === 0) return result;
    const rows = await db
      .selectFrom('rum_session_flags')
      .select(['session_id', 'variant'])
      .where('flag_key', '=', INSTANT_PAY_FLAG)
      .where('session_id', 'in', [...new Set(sessionIds)])
      .orderBy('last_seen')
      .execute();
    for (const row of rows) result.set(row.session_id, row.variant);
    return result;
  }
}

function instantPayOf(payload: string, featureFlags: string | null): string | undefined {
  const context = (JSON.parse(payload) as { context?: Record<string, unknown> }).context;
  const named = context?.instant_pay_variant;
  if (typeof named === 'string' && named !== '') return named;
  const flag = featureFlags
    ? (JSON.parse(featureFlags) as Record<string, unknown>)[INSTANT_PAY_FLAG]
    : undefined;
  return typeof flag === 'string' ? flag : undefined;
}

/** No user context at all: not a sample shopper (id), not the placeholder (name, e-mail). */
function isAnonymous(row: Selectable<RumSessionTable>): boolean {
  return row.usr_id === null && row.usr_name === null && row.usr_email === null;
}
