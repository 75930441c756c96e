import { Type, type Static } from 'typebox';
import {
  INSTANT_PAY_FLAG,
  MONITORING_ACTIONS,
  SESSION_LIST_DEFAULT,
  SESSION_LIST_MAX,
} from './monitoring-constants.js';

// The session inspector's api (GET /monitoring/...): sessions, their timelines and live counts.

const Millis = Type.Union([Type.Number(), Type.Null()], {
  description: 'Milliseconds (the SDK sends nanoseconds), or null when not measured',
});

export const ShopperSchema = Type.Object({
  id: Type.Union([Type.String(), Type.Null()], {
    description: '`usr.id`: the sample shopper id; null for the placeholder identity (isJohnDoe)',
  }),
  name: Type.Union([Type.String(), Type.Null()]),
  team: Type.Union([Type.String(), Type.Null()]),
});

export const SessionSummarySchema = Type.Object(
  {
    id: Type.String({ description: 'RUM `session.id`' }),
    firstSeen: Type.Number({ description: 'Epoch ms of the earliest event' }),
    lastSeen: Type.Number({ description: 'Epoch ms of the latest event' }),
    shopper: Type.Union([ShopperSchema, Type.Null()], {
      description: 'null for an anonymous session (no event carried `usr.id`, name or e-mail)',
    }),
    anonymous: Type.Boolean(),
    flags: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'Each flag of `feature_flags` with every variant the session saw',
    }),
    viewCount: Type.Integer({ minimum: 0 }),
    actionCount: Type.Integer({ minimum: 0 }),
    errorCount: Type.Integer({ minimum: 0 }),
    lcpMs: Type.Union([Type.Number(), Type.Null()], {
      description: 'Largest contentful paint of the slowest view',
    }),
    hasReplay: Type.Boolean(),
    service: Type.Union([Type.String(), Type.Null()]),
    version: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'MonitoringSessionSummary' },
);
export type SessionSummary = Static<typeof SessionSummarySchema>;

export const SessionListQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: SESSION_LIST_MAX, default: SESSION_LIST_DEFAULT }),
});

export const SessionListSchema = Type.Object({
  sessions: Type.Array(Type.Ref('MonitoringSessionSummary'), {
    description: 'Newest activity first',
  }),
});

export const SessionParamsSchema = Type.Object({
  sessionId: Type.String({ pattern: '^[A-Za-z0-9-]{1,128}$', description: 'RUM session id' }),
});

export const TIMELINE_KINDS = ['view', 'action', 'error', 'vital', 'long_task', 'flag'] as const;

export const TimelineEntrySchema = Type.Object({
  kind: Type.Enum(TIMELINE_KINDS),
  date: Type.Number({ description: 'Epoch ms' }),
  viewId: Type.Union([Type.String(), Type.Null()]),
  title: Type.String(),
  usrId: Type.Union([Type.String(), Type.Null()], { description: "The event's `usr.id`" }),
  usr: Type.Union(
    [
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
      Type.Null(),
    ],
    {
      description: "The event's `usr`: id, name, e-mail, team, tier, loyaltyMember (decision 008)",
    },
  ),
  featureFlags: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: "The event's `feature_flags`",
  }),
  detail: Type.Record(
    Type.String(),
    Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  ),
});
export type TimelineEntry = Static<typeof TimelineEntrySchema>;

export const ViewSchema = Type.Object({
  id: Type.String(),
  date: Type.Number(),
  url: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  documentVersion: Type.Integer(),
  loadingTimeMs: Millis,
  fcpMs: Millis,
  lcpMs: Millis,
  inpMs: Millis,
  cls: Type.Union([Type.Number(), Type.Null()]),
  timeSpentMs: Millis,
  actionCount: Type.Integer(),
  errorCount: Type.Integer(),
  featureFlags: Type.Record(Type.String(), Type.Unknown()),
});
export type View = Static<typeof ViewSchema>;

export const SessionDetailSchema = Type.Object({
  session: Type.Ref('MonitoringSessionSummary'),
  views: Type.Array(ViewSchema),
  timeline: Type.Array(TimelineEntrySchema, { description: 'Oldest first' }),
});

export const FlagCountsSchema = Type.Object({
  key: Type.String(),
  variants: Type.Array(
    Type.Object({ variant: Type.String(), sessions: Type.Integer({ minimum: 0 }) }),
  ),
});

export const ConversionSchema = Type.Object({
  variant: Type.String(),
  sessions: Type.Integer({ minimum: 0, description: 'Sessions that saw this variant' }),
  orderedSessions: Type.Integer({
    minimum: 0,
    description: `Of those, sessions with a "${MONITORING_ACTIONS.placeOrder}" action credited to this variant`,
  }),
  conversion: Type.Union([Type.Number(), Type.Null()], {
    description: 'orderedSessions / sessions (0–1), null without sessions',
  }),
  shopOrders: Type.Integer({
    minimum: 0,
    description:
      'Orders in the shop database placed with this variant (orders.instant_pay_variant)',
  }),
});

export const MonitoringStatsSchema = Type.Object({
  generatedAt: Type.Number(),
  sessions: Type.Object({
    total: Type.Integer({ minimum: 0 }),
    anonymous: Type.Integer({ minimum: 0 }),
  }),
  flags: Type.Array(FlagCountsSchema, { description: 'Sessions per variant of each flag' }),
  instantPay: Type.Array(ConversionSchema, {
    description: `Conversion to an order per ${INSTANT_PAY_FLAG} variant`,
  }),
});
export type MonitoringStats = Static<typeof MonitoringStatsSchema>;

export type MonitoringShopper = Static<typeof ShopperSchema>;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];
/** GET /monitoring/sessions/{id}; `session` is a schema reference, so its type is named here. */
export type SessionDetail = Omit<Static<typeof SessionDetailSchema>, 'session'> & {
  session: SessionSummary;
};
