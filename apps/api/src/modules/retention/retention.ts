import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';

/**
 * How long the api keeps what traffic leaves behind (README "Configuration", RETENTION_*).
 * Orders, their lines and payments, accounts, flags and their audit are never purged.
 */
export interface RetentionSettings {
  /** Browser sessions idle this long go, with their carts, saved cards, codes and mail. */
  sessionsDays: number;
  /** Idempotency keys of orders placed this long ago. */
  idempotencyHours: number;
  /** Mail kept in the database outbox (`/outbox`). */
  outboxDays: number;
  /**
   * RUM sessions, views and events, other intake events, flag exposures and evaluations, and
   * tracking events (so experiment results cover this window: docs/decisions/017).
   */
  monitoringDays: number;
  /** Rows per DELETE statement. */
  batchSize: number;
}

/**
 * Defaults: a session lives as long as its cookie (SESSION_MAX_AGE_SECONDS, 30 days), a retried
 * order may come back for a day, mail codes are good for 10 minutes so a week of outbox is
 * plenty, and a week of monitoring covers the inspector's and the scenario proofs' windows.
 */
export const DEFAULT_RETENTION: RetentionSettings = {
  sessionsDays: 30,
  idempotencyHours: 24,
  outboxDays: 7,
  monitoringDays: 7,
  batchSize: 1000,
};

/** How often the job runs (RETENTION_INTERVAL_MINUTES), and once at start. */
export const DEFAULT_RETENTION_INTERVAL_MINUTES = 10;

export const PURGE_TARGETS = [
  'idempotency_keys',
  'outbox_messages',
  'rate_limits',
  'sessions',
  'rum_events',
  'rum_views',
  'rum_sessions',
  'intake_events',
  'flag_exposures',
  'flag_evaluations',
  'tracking_events',
] as const;
export type PurgeTarget = (typeof PURGE_TARGETS)[number];

export interface PurgeResult {
  /** Rows deleted per target (a session's cascaded rows are not counted). */
  deleted: Record<PurgeTarget, number>;
  /** DELETE statements run. */
  statements: number;
  ms: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Target {
  name: PurgeTarget;
  /** Deletes at most `limit` expired rows; answers how many it deleted. */
  deleteBatch(limit: number): Promise<number>;
}

export type Retention = ReturnType<typeof createRetention>;

/**
 * The purge: every target deletes its expired rows in batches of `batchSize`, oldest first, until
 * none is left. Each statement is short (an index range, bounded rows), so requests interleave
 * with it. Several replicas may purge one PostgreSQL at once: the deletes are idempotent and each
 * batch skips rows another replica has locked (`for update skip locked`).
 */
export function createRetention(
  db: Kysely<Database>,
  settings: RetentionSettings = DEFAULT_RETENTION,
  now: () => number = Date.now,
) {
  const postgres = isPostgres(db);
  const skipLocked = sql.raw(postgres ? ' for update skip locked' : '');

  /** `delete from <table> where <key> in (select <key> … where <expired> limit n)`. */
  const batchDelete =
    (table: string, key: string[], expired: () => RawBuilder<unknown>) =>
    async (limit: number): Promise<number> => {
      const columns = sql.raw(key.join(', '));
      const tuple = key.length === 1 ? columns : sql`(${columns})`;
      const result = await sql`delete from ${sql.table(table)} where ${tuple} in (
          select ${columns} from ${sql.table(table)} where ${expired()} limit ${limit}${skipLocked}
        )`.execute(db);
      return Number(result.numAffectedRows ?? 0n);
    };

  const iso = (ms: number) => new Date(ms).toISOString();
  const sessionsBefore = () => iso(now() - settings.sessionsDays * DAY_MS);
  const idempotencyBefore = () => iso(now() - settings.idempotencyHours * HOUR_MS);
  const outboxBefore = () => iso(now() - settings.outboxDays * DAY_MS);
  const monitoringBefore = () => now() - settings.monitoringDays * DAY_MS;

  const targets: Target[] = [
    {
      name: 'idempotency_keys',
      deleteBatch: batchDelete(
        'idempotency_keys',
        ['session_id', 'key'],
        () => sql`created_at < ${idempotencyBefore()}`,
      ),
    },
    {
      // Counters of windows a minute long: a day later they count nothing.
      name: 'rate_limits',
      deleteBatch: batchDelete('rate_limits', ['key'], () => sql`window_start < ${now() - DAY_MS}`),
    },
    {
      name: 'outbox_messages',
      deleteBatch: batchDelete(
        'outbox_messages',
        ['id'],
        () => sql`created_at < ${outboxBefore()}`,
      ),
    },
    {
      // A browser session idle beyond retention (its cookie has expired by then) with nothing
      // that must outlive it: no order or payment names it and no account owns it. Its cart
      // lines, saved cards, codes, outbox mail, idempotency keys and loyalty membership go with
      // it (ON DELETE CASCADE, migrations 003 and 005). An account's data owner row is never
      // purged (kind 'account').
      name: 'sessions',
      deleteBatch: batchDelete(
        'sessions',
        ['id'],
        () => sql`kind = 'browser' and updated_at < ${sessionsBefore()}
          and not exists (select 1 from orders o where o.session_id = sessions.id)
          and not exists (select 1 from payments p where p.session_id = sessions.id)
          and not exists (select 1 from accounts a where a.owner_session_id = sessions.id)`,
      ),
    },
    {
      name: 'rum_events',
      deleteBatch: batchDelete(
        'rum_events',
        ['id'],
        () => sql`received_at < ${monitoringBefore()}`,
      ),
    },
    {
      name: 'rum_views',
      deleteBatch: batchDelete('rum_views', ['id'], () => sql`received_at < ${monitoringBefore()}`),
    },
    {
      // A RUM session's received_at is its latest batch's: its flag variants go with it.
      name: 'rum_sessions',
      async deleteBatch(limit) {
        const before = monitoringBefore();
        return db.transaction().execute(async (trx) => {
          const rows = await sql<{ id: string }>`select id from rum_sessions
            where received_at < ${before} limit ${limit}${skipLocked}`.execute(trx);
          const ids = rows.rows.map((row) => row.id);
          if (ids.length === 0) return 0;
          await trx.deleteFrom('rum_session_flags').where('session_id', 'in', ids).execute();
          const result = await trx
            .deleteFrom('rum_sessions')
            .where('id', 'in', ids)
            .where('received_at', '<', before)
            .executeTakeFirst();
          return Number(result.numDeletedRows);
        });
      },
    },
    {
      name: 'intake_events',
      deleteBatch: batchDelete(
        'intake_events',
        ['id'],
        () => sql`received_at < ${monitoringBefore()}`,
      ),
    },
    {
      name: 'flag_exposures',
      deleteBatch: batchDelete(
        'flag_exposures',
        ['id'],
        () => sql`received_at < ${monitoringBefore()}`,
      ),
    },
    {
      name: 'flag_evaluations',
      deleteBatch: batchDelete(
        'flag_evaluations',
        ['id'],
        () => sql`received_at < ${monitoringBefore()}`,
      ),
    },
    {
      // Aged with the exposures they are joined to (docs/decisions/017-experiment-statistics.md).
      name: 'tracking_events',
      deleteBatch: batchDelete(
        'tracking_events',
        ['id'],
        () => sql`received_at < ${monitoringBefore()}`,
      ),
    },
  ];

  return {
    settings,

    /** One pass over every target; resolves once nothing expired is left (or `stopped()`). */
    async purge(stopped: () => boolean = () => false): Promise<PurgeResult> {
      const started = performance.now();
      const deleted = Object.fromEntries(PURGE_TARGETS.map((name) => [name, 0])) as Record<
        PurgeTarget,
        number
      >;
      let statements = 0;
      for (const target of targets) {
        for (;;) {
          if (stopped()) break;
          const n = await target.deleteBatch(settings.batchSize);
          statements += 1;
          deleted[target.name] += n;
          if (n < settings.batchSize) break;
          // Let waiting requests run between batches (SQLite statements block the event loop).
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      return { deleted, statements, ms: performance.now() - started };
    },
  };
}

export interface RetentionJobLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * Runs the purge once now and then every `intervalMs`; a failed run (the database away) is
 * logged and tried again at the next interval. `stop()` waits for a running pass to end.
 */
export function startRetentionJob(
  retention: Retention,
  intervalMs: number,
  log: RetentionJobLogger,
): { stop(): Promise<void> } {
  let stopped = false;
  let current: Promise<void> | undefined;
  const run = () => {
    // A slow pass is never overlapped by the next one.
    if (stopped || current) return;
    current = retention
      .purge(() => stopped)
      .then(
        (result) => {
          const total = Object.values(result.deleted).reduce((sum, n) => sum + n, 0);
          if (total > 0) {
            log.info(
              { deleted: result.deleted, statements: result.statements, ms: Math.round(result.ms) },
              'retention: purged expired rows',
            );
          }
        },
        (err: unknown) => log.error({ err }, 'retention: purge failed; next try at the interval'),
      )
      .finally(() => {
        current = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
