import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { keptEventRow } from './kept-events.js';
import type { ExposureEvent, FlagEvaluationEvent } from './schemas.js';

/** Rows per INSERT: keeps PostgreSQL under its 65,535 bind parameters for any batch size. */
const INSERT_CHUNK = 500;

export type IntakeRepository = ReturnType<typeof createIntakeRepository>;

/** Exposure counts of one flag: per variant, and the total. */
export interface ExposureCounts {
  total: number;
  byVariant: Record<string, number>;
}

export function createIntakeRepository(db: Kysely<Database>) {
  return {
    async storeExposures(events: ExposureEvent[], receivedAt: number): Promise<void> {
      const rows = events.map((event) => ({
        flag_key: event.flag.key,
        allocation_key: event.allocation.key,
        variant_key: event.variant.key,
        subject_id: event.subject.id,
        subject_attributes: JSON.stringify(event.subject.attributes ?? {}),
        timestamp: Math.round(event.timestamp),
        service: event.service ?? null,
        received_at: receivedAt,
      }));
      await db.transaction().execute(async (trx) => {
        for (const chunk of chunks(rows))
          await trx.insertInto('flag_exposures').values(chunk).execute();
      });
    },

    async storeFlagEvaluations(events: FlagEvaluationEvent[], receivedAt: number): Promise<void> {
      const rows = events.map((event) => ({
        flag_key: event.flag.key,
        variant_key: event.variant?.key ?? null,
        allocation_key: event.allocation?.key ?? null,
        targeting_rule_key: event.targeting_rule?.key ?? null,
        targeting_key: event.targeting_key ?? null,
        evaluation_count: event.evaluation_count,
        first_evaluation: Math.round(event.first_evaluation),
        last_evaluation: Math.round(event.last_evaluation),
        runtime_default_used: event.runtime_default_used ? 1 : 0,
        error_message: event.error?.message ?? null,
        context: event.context === undefined ? null : JSON.stringify(event.context),
        timestamp: Math.round(event.timestamp),
        received_at: receivedAt,
      }));
      await db.transaction().execute(async (trx) => {
        for (const chunk of chunks(rows))
          await trx.insertInto('flag_evaluations').values(chunk).execute();
      });
    },

    /** Any other track (rum, logs, replay…): each event kept whole for the monitoring pages. */
    async storeEvents(
      track: string,
      events: Record<string, unknown>[],
      receivedAt: number,
    ): Promise<void> {
      const rows = events.map((event) => keptEventRow(track, event, receivedAt));
      await db.transaction().execute(async (trx) => {
        for (const chunk of chunks(rows))
          await trx.insertInto('intake_events').values(chunk).execute();
      });
    },

    /** Stored exposures per flag and variant (the provider logs each subject's exposure once per variant). */
    async countExposures(): Promise<Map<string, ExposureCounts>> {
      const rows = await db
        .selectFrom('flag_exposures')
        .select(['flag_key', 'variant_key'])
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .groupBy(['flag_key', 'variant_key'])
        .execute();
      const counts = new Map<string, ExposureCounts>();
      for (const row of rows) {
        const entry = counts.get(row.flag_key) ?? { total: 0, byVariant: {} };
        const n = Number(row.n);
        entry.byVariant[row.variant_key] = n;
        entry.total += n;
        counts.set(row.flag_key, entry);
      }
      return counts;
    },
  };
}

/** Splits a batch for INSERTs; callers run them in one transaction, so a batch is stored whole or not at all. */
function chunks<T>(rows: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    result.push(rows.slice(start, start + INSERT_CHUNK));
  }
  return result;
}
