import type { Kysely } from 'kysely';
import { isDatabaseUnavailable } from '../../db/database.js';
import { createGroupCommit } from '../../db/group-commit.js';
import { prepareRowsStatement } from '../../db/prepared.js';
import { keptEventRow } from '../intake/kept-events.js';
import type { Database } from '../../db/schema.js';
import type {
  RumEventRow,
  RumRows,
  RumSessionFlagRow,
  RumSessionRow,
  RumViewRow,
} from './rum-events.js';

/** Rows per INSERT: keeps PostgreSQL under its 65,535 bind parameters for any batch size. */
const INSERT_CHUNK = 200;
/**
 * Rows (events, views, other events) per group of RUM batches, so one transaction holds the
 * connection for tens of milliseconds at most; a bigger batch is written alone. About 20 of the
 * SDK's batches: with 50 senders, the next group's bodies arrive while one is written, where a
 * group of 2,000 rows held nearly every sender and the api then waited for them to send again
 * (November 25, 2026, 12 loads each: about 18 % more events stored per second than with 2,000;
 * 500, 750 and 1,250 were slower than 1,000).
 */
const GROUP_MAX_ROWS = 1_000;

export type MonitoringStore = ReturnType<typeof createMonitoringStore>;

const RUM_EVENT_COLUMNS = [
  'event_key',
  'session_id',
  'view_id',
  'event_type',
  'date',
  'name',
  'usr_id',
  'feature_flags',
  'payload',
  'received_at',
] as const satisfies readonly (keyof RumEventRow)[];
const RUM_VIEW_COLUMNS = [
  'id',
  'session_id',
  'document_version',
  'date',
  'url',
  'name',
  'loading_time',
  'first_contentful_paint',
  'largest_contentful_paint',
  'interaction_to_next_paint',
  'cumulative_layout_shift',
  'time_spent',
  'action_count',
  'error_count',
  'usr_id',
  'feature_flags',
  'payload',
  'received_at',
] as const satisfies readonly (keyof RumViewRow)[];
const RUM_SESSION_COLUMNS = [
  'id',
  'application_id',
  'first_seen',
  'last_seen',
  'usr_id',
  'usr_name',
  'usr_email',
  'usr_team',
  'service',
  'version',
  'has_replay',
  'received_at',
  'scenario',
] as const satisfies readonly (keyof RumSessionRow)[];
const RUM_SESSION_FLAG_COLUMNS = [
  'session_id',
  'flag_key',
  'variant',
  'first_seen',
  'last_seen',
] as const satisfies readonly (keyof RumSessionFlagRow)[];

/** One rum-track batch as the intake decoded it. */
interface RumBatch {
  rows: RumRows;
  /** The batch's events of other types (telemetry…), kept whole in intake_events. */
  other: { track: string; events: Record<string, unknown>[] };
  receivedAt: number;
}

/** A comparator of rows by these text columns, in this order. */
function byColumns<K extends string>(...columns: K[]) {
  return (a: Record<K, string>, b: Record<K, string>): number => {
    for (const column of columns) {
      if (a[column] !== b[column]) return a[column] < b[column] ? -1 : 1;
    }
    return 0;
  };
}

/** A replay segment's place in the store: one `replay` event and the session's replay mark. */
export interface ReplaySegmentRow {
  sessionId: string;
  viewId: string;
  applicationId: string | null;
  indexInView: number;
  start: number;
  end: number;
  payload: Record<string, unknown>;
}

/**
 * Writes what the intake decoded into the rum_* tables. Every write is an upsert that keeps the
 * newest knowledge (highest view version, widest session time range, latest shopper), so
 * batches may arrive in any order, twice, or on different replicas at once. Rows are written
 * in key order inside one transaction, so concurrent batches lock in the same order.
 */
export function createMonitoringStore(
  db: Kysely<Database>,
  options: {
    /** RUM groups written at once: 1 on SQLite (one connection), a few on PostgreSQL. */
    parallelGroups?: number;
  } = {},
) {
  // A chunk of RUM events, compiled once per chunk length: an intake batch's events are most of
  // what it writes, and building that insert anew cost Kysely ~10 µs per event. Events already
  // stored (same session and event_key: a batch sent again) are skipped (migration 013).
  const insertRumEvents = prepareRowsStatement<Database, RumEventRow, unknown>(
    RUM_EVENT_COLUMNS,
    (rows) =>
      db
        .insertInto('rum_events')
        .values(rows)
        .onConflict((oc) => oc.columns(['session_id', 'event_key']).doNothing()),
  );
  // The batch's other upserts, one row each (in key order), compiled once as well.
  const upsertView = prepareRowsStatement<Database, RumViewRow, unknown>(RUM_VIEW_COLUMNS, (rows) =>
    db
      .insertInto('rum_views')
      .values(rows)
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({
            document_version: eb.ref('excluded.document_version'),
            date: eb.ref('excluded.date'),
            url: eb.ref('excluded.url'),
            name: eb.ref('excluded.name'),
            loading_time: eb.ref('excluded.loading_time'),
            first_contentful_paint: eb.ref('excluded.first_contentful_paint'),
            largest_contentful_paint: eb.ref('excluded.largest_contentful_paint'),
            interaction_to_next_paint: eb.ref('excluded.interaction_to_next_paint'),
            cumulative_layout_shift: eb.ref('excluded.cumulative_layout_shift'),
            time_spent: eb.ref('excluded.time_spent'),
            action_count: eb.ref('excluded.action_count'),
            error_count: eb.ref('excluded.error_count'),
            usr_id: eb.fn.coalesce('excluded.usr_id', 'rum_views.usr_id'),
            feature_flags: eb.fn.coalesce('excluded.feature_flags', 'rum_views.feature_flags'),
            payload: eb.ref('excluded.payload'),
            received_at: eb.ref('excluded.received_at'),
          }))
          .whereRef('excluded.document_version', '>', 'rum_views.document_version'),
      ),
  );
  const upsertFlag = prepareRowsStatement<Database, RumSessionFlagRow, unknown>(
    RUM_SESSION_FLAG_COLUMNS,
    (rows) =>
      db
        .insertInto('rum_session_flags')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['session_id', 'flag_key', 'variant']).doUpdateSet((eb) => ({
            first_seen: eb
              .case()
              .when('excluded.first_seen', '<', eb.ref('rum_session_flags.first_seen'))
              .then(eb.ref('excluded.first_seen'))
              .else(eb.ref('rum_session_flags.first_seen'))
              .end(),
            last_seen: eb
              .case()
              .when('excluded.last_seen', '>', eb.ref('rum_session_flags.last_seen'))
              .then(eb.ref('excluded.last_seen'))
              .else(eb.ref('rum_session_flags.last_seen'))
              .end(),
          })),
        ),
  );
  const upsertSession = prepareRowsStatement<Database, RumSessionRow, unknown>(
    RUM_SESSION_COLUMNS,
    (rows) => sessionUpsert(db, rows),
  );

  /** The RUM batches of one group commit, written in one transaction. */
  const writeRumBatches = (batches: readonly RumBatch[]) =>
    db.transaction().execute(async (trx) => {
      // Sessions, views and flags of every batch in key order (the lock order on PostgreSQL; a
      // stable sort: one key's rows in arrival order), events in arrival order after them.
      const all = <Row>(pick: (batch: RumBatch) => readonly Row[]) => batches.flatMap(pick);
      const sessions = all((batch) => batch.rows.sessions).sort(byColumns('id'));
      const views = all((batch) => batch.rows.views).sort(byColumns('id'));
      const flags = all((batch) => batch.rows.flags).sort(
        byColumns('session_id', 'flag_key', 'variant'),
      );
      const events = all((batch) => batch.rows.events);
      for (const session of sessions) await upsertSession(trx, [session]);
      for (const view of views) await upsertView(trx, [view]);
      for (let i = 0; i < events.length; i += INSERT_CHUNK) {
        await insertRumEvents(trx, events.slice(i, i + INSERT_CHUNK));
      }
      for (const flag of flags) await upsertFlag(trx, [flag]);
      const generic = batches.flatMap(({ other, receivedAt }) =>
        other.events.map((event) => keptEventRow(other.track, event, receivedAt)),
      );
      for (let i = 0; i < generic.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('intake_events')
          .values(generic.slice(i, i + INSERT_CHUNK))
          .execute();
      }
    });
  const storeRumBatch = createGroupCommit(writeRumBatches, {
    weight: ({ rows, other }) => rows.events.length + rows.views.length + other.events.length,
    maxWeight: GROUP_MAX_ROWS,
    parallel: options.parallelGroups ?? 1,
    // A lost connection may have lost it during the commit: writing the batches again could
    // store them twice, so each fails (the SDK sends a failed batch again).
    retryAlone: (error) => !isDatabaseUnavailable(error),
  });

  return {
    /**
     * One rum-track batch, stored whole or not at all; `other` events (telemetry…) go to
     * intake_events. Batches arriving together are written in one transaction (group commit).
     */
    storeRumBatch(rows: RumRows, other: RumBatch['other'], receivedAt: number): Promise<void> {
      return storeRumBatch({ rows, other, receivedAt });
    },

    /** A decoded replay segment: marks the session as replayed and keeps the segment's metadata. */
    async storeReplaySegment(segment: ReplaySegmentRow, receivedAt: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await upsertSession(trx, [
          {
            id: segment.sessionId,
            application_id: segment.applicationId,
            first_seen: segment.start,
            last_seen: segment.end,
            usr_id: null,
            usr_name: null,
            usr_email: null,
            usr_team: null,
            service: null,
            version: null,
            has_replay: 1,
            received_at: receivedAt,
            scenario: null,
          },
        ]);
        await trx
          .insertInto('rum_events')
          .values({
            event_key: `replay:${segment.viewId}:${segment.indexInView}`,
            session_id: segment.sessionId,
            view_id: segment.viewId,
            event_type: 'replay',
            date: segment.start,
            name: null,
            usr_id: null,
            feature_flags: null,
            payload: JSON.stringify(segment.payload),
            received_at: receivedAt,
          })
          .onConflict((oc) => oc.columns(['session_id', 'event_key']).doNothing())
          .execute();
      });
    },
  };
}

/** Widens the session's time range; a batch that knows the user replaces what was stored. */
function sessionUpsert(db: Kysely<Database>, rows: RumSessionRow[]) {
  return db
    .insertInto('rum_sessions')
    .values(rows)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => {
        const known = eb.or([
          eb('excluded.usr_id', 'is not', null),
          eb('excluded.usr_name', 'is not', null),
          eb('excluded.usr_email', 'is not', null),
        ]);
        const latest = <C extends 'usr_id' | 'usr_name' | 'usr_email' | 'usr_team'>(column: C) =>
          eb
            .case()
            .when(known)
            .then(eb.ref(`excluded.${column}`))
            .else(eb.ref(`rum_sessions.${column}`))
            .end();
        return {
          application_id: eb.fn.coalesce('rum_sessions.application_id', 'excluded.application_id'),
          first_seen: eb
            .case()
            .when('excluded.first_seen', '<', eb.ref('rum_sessions.first_seen'))
            .then(eb.ref('excluded.first_seen'))
            .else(eb.ref('rum_sessions.first_seen'))
            .end(),
          last_seen: eb
            .case()
            .when('excluded.last_seen', '>', eb.ref('rum_sessions.last_seen'))
            .then(eb.ref('excluded.last_seen'))
            .else(eb.ref('rum_sessions.last_seen'))
            .end(),
          usr_id: latest('usr_id'),
          usr_name: latest('usr_name'),
          usr_email: latest('usr_email'),
          usr_team: latest('usr_team'),
          service: eb.fn.coalesce('excluded.service', 'rum_sessions.service'),
          version: eb.fn.coalesce('excluded.version', 'rum_sessions.version'),
          has_replay: eb
            .case()
            .when('excluded.has_replay', '=', 1)
            .then(eb.lit(1))
            .else(eb.ref('rum_sessions.has_replay'))
            .end(),
          received_at: eb.ref('excluded.received_at'),
          scenario: eb.fn.coalesce('rum_sessions.scenario', 'excluded.scenario'),
        };
      }),
    );
}
