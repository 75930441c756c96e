import { Type, type Static } from 'typebox';
import { literalUnion } from './catalog.js';

/**
 * Change markers (docs/decisions/011-scenario-catalogue.md): what changed the shop's behaviour,
 * who changed it and when, shown on the inspector's charts and timelines next to the effect.
 * Flag changes come from the flag audit; scenario starts and stops, new builds, the autopilot's
 * transitions (docs/decisions/018-autopilot.md) and a guarded rollout's steps, trips and
 * rollbacks (decision 019) are stored as markers of their own.
 */
export const MARKER_KINDS = ['flag', 'scenario', 'build', 'autopilot', 'guard'] as const;
export type MarkerKind = (typeof MARKER_KINDS)[number];

export const ChangeMarkerSchema = Type.Object({
  id: Type.String({ description: 'Unique among markers: "<kind>:<number>"' }),
  kind: literalUnion(MARKER_KINDS),
  /** The flag key, the scenario id, the build id or the autopilot's profile name. */
  subject: Type.String(),
  action: Type.String({
    description:
      'flag: enable, disable, rollout, rules; scenario: start, stop; build: deploy; autopilot: start, pause, resume, stop, step, finish; guard: step, tripped, rolled-back, held, completed',
  }),
  operator: Type.String({ description: 'Who made the change' }),
  at: Type.Integer({ description: 'Epoch ms' }),
  before: Type.Unknown(),
  after: Type.Unknown(),
  /** Flags the change touched (a flag change: its own key; a scenario: the flags it changes). */
  flags: Type.Array(Type.String()),
});
export type ChangeMarker = Static<typeof ChangeMarkerSchema>;

export const MARKER_LIST_DEFAULT = 50;
export const MARKER_LIST_MAX = 500;

export const MarkerQuerySchema = Type.Object({
  flag: Type.Optional(
    Type.String({ minLength: 1, description: 'Only markers touching this flag' }),
  ),
  since: Type.Optional(Type.Integer({ minimum: 0, description: 'Epoch ms, inclusive' })),
  until: Type.Optional(Type.Integer({ minimum: 0, description: 'Epoch ms, inclusive' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MARKER_LIST_MAX, default: MARKER_LIST_DEFAULT }),
  ),
});
export type MarkerQuery = Static<typeof MarkerQuerySchema>;

export const MarkerListSchema = Type.Object({
  markers: Type.Array(ChangeMarkerSchema, { description: 'Newest first' }),
});
export type MarkerList = Static<typeof MarkerListSchema>;

export const BuildMarkerBodySchema = Type.Object({
  buildId: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$' }),
  operator: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const BuildMarkerResultSchema = Type.Object({
  /** The new marker, or null when this build was already the latest one recorded. */
  marker: Type.Union([ChangeMarkerSchema, Type.Null()]),
});

/**
 * A flag's incident timeline (docs/decisions/020-guarded-rollout-scenario.md): its change
 * markers and the browser errors of the sessions that carried the flag, oldest first, so a
 * rollout's steps, a fault, the errors it caused and the guard's rollback read in order.
 */
export const TIMELINE_LIMIT_DEFAULT = 200;

export const TimelineQuerySchema = Type.Object({
  flag: Type.String({ minLength: 1, maxLength: 200, description: 'The flag whose timeline' }),
  since: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Epoch ms, inclusive; default: an hour ago' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MARKER_LIST_MAX, default: TIMELINE_LIMIT_DEFAULT }),
  ),
});
export type TimelineQuery = Static<typeof TimelineQuerySchema>;

export const TimelineEntrySchema = Type.Union([
  Type.Object({
    kind: Type.Literal('marker'),
    at: Type.Integer(),
    marker: ChangeMarkerSchema,
  }),
  Type.Object({
    kind: Type.Literal('errors'),
    /** The first error of the run, epoch ms. */
    at: Type.Integer(),
    /** The last error of the run, epoch ms. */
    until: Type.Integer(),
    /** The error's message (as the browser monitoring stored it). */
    message: Type.String(),
    /** The flag's variant in the sessions that had the errors (as RUM stores it). */
    variant: Type.Union([Type.String(), Type.Null()]),
    count: Type.Integer({ minimum: 1 }),
    sessions: Type.Integer({ minimum: 1 }),
  }),
]);
export type TimelineEntry = Static<typeof TimelineEntrySchema>;

export const TimelineSchema = Type.Object({
  flag: Type.String(),
  since: Type.Integer(),
  /** Oldest first; errors of one message and variant between two markers are one entry. */
  entries: Type.Array(TimelineEntrySchema),
});
export type Timeline = Static<typeof TimelineSchema>;
