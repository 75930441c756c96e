import type { UfcRule } from '../flags/ufc.js';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChangeMarkerTable, Database, ScenarioRunTable } from '../../db/schema.js';
import type { ChangeMarker, MarkerKind, MarkerQuery } from '@showroom/contracts/markers';
import { MARKER_LIST_DEFAULT } from '@showroom/contracts/markers';
import type { ScenarioRun } from '@showroom/contracts/scenarios';

/** A flag's state before a scenario changed it, put back when the scenario stops. */
export interface FlagRestore {
  flag: string;
  enabled: boolean;
  allocation?: string;
  rolloutPercentage?: number;
  /** The allocation's targeting rules before (when the scenario replaced them). */
  rules?: UfcRule[];
  /** The variation the allocation's split served before (when the scenario changed it). */
  variation?: string;
}

export interface NewMarker {
  kind: Exclude<MarkerKind, 'flag'>;
  subject: string;
  action: string;
  operator: string;
  at: number;
  before: unknown;
  after: unknown;
  flags: string[];
}

export type ScenarioRepository = ReturnType<typeof createScenarioRepository>;

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function toRun(row: Selectable<ScenarioRunTable>): ScenarioRun {
  return {
    id: Number(row.id),
    scenarioId: row.scenario_id,
    startedAt: Number(row.started_at),
    startedBy: row.started_by,
    stoppedAt: row.stopped_at === null ? null : Number(row.stopped_at),
    stoppedBy: row.stopped_by,
  };
}

function toMarker(row: Selectable<ChangeMarkerTable>): ChangeMarker {
  return {
    id: `${row.kind}:${row.id}`,
    kind: row.kind as MarkerKind,
    subject: row.subject,
    action: row.action,
    operator: row.operator,
    at: Number(row.at),
    before: parse(row.before),
    after: parse(row.after),
    flags: JSON.parse(row.flag_keys) as string[],
  };
}

/** The row number of a marker id (`flag:12` → 12): the order of changes made at the same ms. */
const serial = (marker: ChangeMarker) => Number(marker.id.slice(marker.id.indexOf(':') + 1));

/**
 * At the same ms, a stored marker was written after the flag changes it sums up (a scenario
 * start records its marker once its flags are changed): it counts as the newer.
 */
const written = (marker: ChangeMarker) => (marker.kind === 'flag' ? 0 : 1);

/** Flag audit actions that are not an operator's change (the definitions loaded at start). */
const NOT_MARKED = ['load'];

/** Scenario runs and change markers (migration 007-scenarios). */
export function createScenarioRepository(db: Kysely<Database>) {
  return {
    async activeRuns(): Promise<ScenarioRun[]> {
      const rows = await db
        .selectFrom('scenario_runs')
        .selectAll()
        .where('stopped_at', 'is', null)
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toRun);
    },

    async activeRun(
      scenarioId: string,
    ): Promise<{ run: ScenarioRun; restore: FlagRestore[] } | null> {
      const row = await db
        .selectFrom('scenario_runs')
        .selectAll()
        .where('scenario_id', '=', scenarioId)
        .where('stopped_at', 'is', null)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row ? { run: toRun(row), restore: JSON.parse(row.restore) as FlagRestore[] } : null;
    },

    async startRun(
      scenarioId: string,
      operator: string,
      at: number,
      restore: FlagRestore[],
    ): Promise<ScenarioRun> {
      const row = await db
        .insertInto('scenario_runs')
        .values({
          scenario_id: scenarioId,
          started_at: at,
          started_by: operator,
          restore: JSON.stringify(restore),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRun(row);
    },

    async stopRun(id: number, operator: string, at: number): Promise<ScenarioRun> {
      const row = await db
        .updateTable('scenario_runs')
        .set({ stopped_at: at, stopped_by: operator })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRun(row);
    },

    async addMarker(marker: NewMarker): Promise<ChangeMarker> {
      const row = await db
        .insertInto('change_markers')
        .values({
          kind: marker.kind,
          subject: marker.subject,
          action: marker.action,
          operator: marker.operator,
          at: marker.at,
          before: json(marker.before),
          after: json(marker.after),
          flag_keys: JSON.stringify(marker.flags),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toMarker(row);
    },

    /** The newest marker of a kind (the build running before a new one). */
    async latestMarker(kind: NewMarker['kind']): Promise<ChangeMarker | null> {
      const row = await db
        .selectFrom('change_markers')
        .selectAll()
        .where('kind', '=', kind)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row ? toMarker(row) : null;
    },

    /**
     * Markers newest first: the flag audit's operator changes and the stored markers. With
     * `flag`, only those touching that flag (its own changes and the scenarios changing it).
     */
    async listMarkers(query: MarkerQuery): Promise<ChangeMarker[]> {
      const limit = query.limit ?? MARKER_LIST_DEFAULT;
      let audit = db
        .selectFrom('flag_audit')
        .selectAll()
        .where('action', 'not in', NOT_MARKED)
        .where('flag_key', 'is not', null)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit);
      let stored = db
        .selectFrom('change_markers')
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc');
      if (query.flag !== undefined) {
        audit = audit.where('flag_key', '=', query.flag);
        // flag_keys is a JSON array of keys: a quoted key cannot match inside another key.
        const pattern = `%${JSON.stringify(query.flag).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        stored = stored.where(sql<boolean>`flag_keys like ${pattern} escape '\\'`);
      }
      if (query.since !== undefined) {
        audit = audit.where('at', '>=', query.since);
        stored = stored.where('at', '>=', query.since);
      }
      if (query.until !== undefined) {
        audit = audit.where('at', '<=', query.until);
        stored = stored.where('at', '<=', query.until);
      }
      const [auditRows, storedRows] = await Promise.all([
        audit.execute(),
        // Without a flag filter every stored marker counts; with one, only those naming it.
        stored.limit(limit).execute(),
      ]);
      const flagMarkers: ChangeMarker[] = auditRows.map((row) => ({
        id: `flag:${row.id}`,
        kind: 'flag',
        subject: row.flag_key ?? '',
        action: row.action,
        operator: row.operator,
        at: Number(row.at),
        before: parse(row.before),
        after: parse(row.after),
        flags: row.flag_key === null ? [] : [row.flag_key],
      }));
      return [...flagMarkers, ...storedRows.map(toMarker)]
        .sort((a, b) => b.at - a.at || written(b) - written(a) || serial(b) - serial(a))
        .slice(0, limit);
    },
  };
}
