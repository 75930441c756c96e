import { sql, type Kysely } from 'kysely';
import { CONVERSION_EVENT, type TrackingEvent } from '@showroom/contracts/experiments';
import type { Database } from '../../db/schema.js';

/** Rows per INSERT: 7 columns × 100 events stays far under PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500;

/** Subjects first exposed to one variant under one allocation, and what they bought after. */
export interface VariantTotals {
  variant: string;
  allocationKey: string;
  exposed: number;
  conversions: number;
  /** Sum of purchase values after first exposure, integer cents. */
  revenueCents: number;
  /** Sum over subjects of (their revenue in cents)², for the sample variance. */
  revenueSquares: number;
  firstExposureAt: number;
  lastExposureAt: number;
  /** The latest first conversion, or null when nobody converted. */
  lastConversionAt: number | null;
}

/** Subjects first exposed (kind 'exposed') or first converted ('converted') in a bucket. */
export interface BucketCount {
  kind: 'exposed' | 'converted';
  variant: string;
  bucket: number;
  n: number;
}

export type ExperimentsRepository = ReturnType<typeof createExperimentsRepository>;

/** Joins a subject's first exposure `f` to its purchases `t` from that moment on. */
const PURCHASE_AFTER_FIRST_EXPOSURE = sql<boolean>`t.targeting_key = f.subject_id
  and t.name = ${CONVERSION_EVENT} and t.timestamp >= f.timestamp`;

export function createExperimentsRepository(db: Kysely<Database>) {
  /**
   * Every subject of `flagKey` with the variant and allocation of its FIRST exposure (ties on
   * the timestamp go to the exposure stored first), then its purchases at or after that moment:
   * when it first converted and its revenue (docs/decisions/017-experiment-statistics.md).
   */
  const subjects = (flagKey: string, since: number | undefined) =>
    db
      .with('ranked', (qb) =>
        qb
          .selectFrom('flag_exposures')
          .select(['subject_id', 'variant_key', 'allocation_key', 'timestamp'])
          .select(
            sql<number>`row_number() over (partition by subject_id order by timestamp, id)`.as(
              'rn',
            ),
          )
          .where('flag_key', '=', flagKey)
          .$if(since !== undefined, (qb) => qb.where('timestamp', '>=', since!)),
      )
      .with('subjects', (qb) =>
        qb
          .selectFrom('ranked as f')
          .leftJoin('tracking_events as t', (join) => join.on(PURCHASE_AFTER_FIRST_EXPOSURE))
          .where('f.rn', '=', 1)
          .select(['f.subject_id', 'f.variant_key', 'f.allocation_key', 'f.timestamp as first_at'])
          .select((eb) => [
            eb.fn.min('t.timestamp').as('converted_at'),
            sql<number>`coalesce(sum(t.value_cents), 0)`.as('revenue'),
          ])
          .groupBy(['f.subject_id', 'f.variant_key', 'f.allocation_key', 'f.timestamp']),
      );

  return {
    /** One batch in one transaction: stored whole or not at all. Answers the rows stored. */
    async storeTrackingEvents(events: TrackingEvent[], receivedAt: number): Promise<number> {
      const rows = events.map((event) => ({
        targeting_key: event.targetingKey,
        name: event.name,
        value_cents: event.value ?? null,
        currency: event.currency ?? null,
        details: event.details === undefined ? null : JSON.stringify(event.details),
        timestamp: event.timestamp,
        received_at: receivedAt,
      }));
      await db.transaction().execute(async (trx) => {
        for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
          await trx
            .insertInto('tracking_events')
            .values(rows.slice(start, start + INSERT_CHUNK))
            .execute();
        }
      });
      return rows.length;
    },

    /** Distinct exposed subjects per flag. */
    async exposedSubjectsPerFlag(): Promise<Map<string, number>> {
      const rows = await db
        .selectFrom('flag_exposures')
        .select('flag_key')
        .select((eb) => eb.fn.count<string | number>('subject_id').distinct().as('n'))
        .groupBy('flag_key')
        .execute();
      return new Map(rows.map((row) => [row.flag_key, Number(row.n)]));
    },

    /** Per variant and allocation of first exposure: counts, revenue sums and time range. */
    async variantTotals(flagKey: string, since?: number): Promise<VariantTotals[]> {
      // Squares in double precision: a bigint sum of squared cents could overflow.
      const rows = await subjects(flagKey, since)
        .selectFrom('subjects')
        .select(['variant_key', 'allocation_key'])
        .select((eb) => [
          eb.fn.countAll<string | number>().as('exposed'),
          eb.fn.count<string | number>('converted_at').as('conversions'),
          eb.fn.sum<string | number>('revenue').as('revenue'),
          sql<
            string | number
          >`sum(cast(revenue as double precision) * cast(revenue as double precision))`.as(
            'revenue_squares',
          ),
          eb.fn.min('first_at').as('first_at'),
          eb.fn.max('first_at').as('last_at'),
          eb.fn.max('converted_at').as('last_converted_at'),
        ])
        .groupBy(['variant_key', 'allocation_key'])
        .execute();
      return rows.map((row) => ({
        variant: row.variant_key,
        allocationKey: row.allocation_key,
        exposed: Number(row.exposed),
        conversions: Number(row.conversions),
        revenueCents: Number(row.revenue ?? 0),
        revenueSquares: Number(row.revenue_squares ?? 0),
        firstExposureAt: Number(row.first_at),
        lastExposureAt: Number(row.last_at),
        lastConversionAt: row.last_converted_at === null ? null : Number(row.last_converted_at),
      }));
    },

    /**
     * Subjects first exposed and first converted per variant and time bucket
     * (`(time − start) / width`, integer division on both databases).
     */
    async bucketCounts(
      flagKey: string,
      since: number | undefined,
      start: number,
      width: number,
    ): Promise<BucketCount[]> {
      // Buckets computed once in a CTE and grouped by name: PostgreSQL would not match two
      // copies of a parameterised expression in SELECT and GROUP BY.
      const bucket = (column: 'first_at' | 'converted_at') =>
        sql<number | null>`cast((${sql.ref(column)} - ${start}) / ${width} as integer)`;
      const rows = await subjects(flagKey, since)
        .with('bucketed', (qb) =>
          qb
            .selectFrom('subjects')
            .select([
              'variant_key',
              bucket('first_at').as('exposed_bucket'),
              bucket('converted_at').as('converted_bucket'),
            ]),
        )
        .selectFrom('bucketed')
        .select([sql.lit('exposed').as('kind'), 'variant_key', 'exposed_bucket as bucket'])
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .groupBy(['variant_key', 'exposed_bucket'])
        .unionAll((eb) =>
          eb
            .selectFrom('bucketed')
            .select([sql.lit('converted').as('kind'), 'variant_key', 'converted_bucket as bucket'])
            .select(eb.fn.countAll<string | number>().as('n'))
            .where('converted_bucket', 'is not', null)
            .groupBy(['variant_key', 'converted_bucket']),
        )
        .execute();
      return rows.map((row) => ({
        kind: row.kind as BucketCount['kind'],
        variant: row.variant_key,
        bucket: Number(row.bucket),
        n: Number(row.n),
      }));
    },

    /** Currencies of the purchases the results count. */
    async purchaseCurrencies(flagKey: string, since?: number): Promise<string[]> {
      const rows = await subjects(flagKey, since)
        .selectFrom('ranked as f')
        .innerJoin('tracking_events as t', (join) => join.on(PURCHASE_AFTER_FIRST_EXPOSURE))
        .where('f.rn', '=', 1)
        .select('t.currency')
        .distinct()
        .where('t.currency', 'is not', null)
        .orderBy('t.currency')
        .execute();
      return rows.map((row) => row.currency).filter((currency) => currency !== null);
    },
  };
}
