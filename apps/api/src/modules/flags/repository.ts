import type { AuditEntry } from '@showroom/contracts/flags-admin';
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { createGenerationCache, dataGenerationOf } from '../../db/data-generation.js';
import { prepareQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { FlagDefinitions } from './definitions.js';
import type { FlagChange } from './operations.js';
import type { UfcFlag } from './ufc.js';
import { deepFreeze } from './deep-freeze.js';

/** The served configuration is one row: every flag change bumps its createdAt. */
export const CONFIGURATION_ID = 'current';

export interface ServedConfiguration {
  /** Epoch ms; the provider refetches and clears its exposure cache when it changes. */
  createdAt: number;
  environment: string;
  source: string;
}

export interface StoredFlag {
  flag: UfcFlag;
  revision: number;
  updatedAt: number;
}

export type { AuditEntry };

export interface SyncResult {
  added: string[];
  updated: string[];
  removed: string[];
  createdAt: number;
}

export type FlagsRepository = ReturnType<typeof createFlagsRepository>;

export function createFlagsRepository(db: Kysely<Database>, now: () => number = Date.now) {
  /**
   * The served flags, parsed once per configuration version. Every flag change bumps the
   * configuration's createdAt (one row, read by primary key), so a request reads that and
   * re-reads the flags only when it moved: a change made on another replica applies to the
   * next evaluation here as well (docs/architecture.md "Scaling"). The flags are frozen, as
   * every request shares them.
   */
  let served:
    { createdAt: number; flags: readonly UfcFlag[]; byKey: Map<string, StoredFlag> } | undefined;
  const servedFlags = async (configuration: ServedConfiguration | undefined) => {
    if (configuration === undefined) return undefined;
    if (served?.createdAt !== configuration.createdAt) {
      const rows = await db
        .selectFrom('flags')
        .select(['key', 'definition', 'revision', 'updated_at'])
        .orderBy('key')
        .execute();
      const stored = rows.map((row) => [row.key, deepFreeze(toStoredFlag(row))] as const);
      served = {
        createdAt: configuration.createdAt,
        flags: Object.freeze(stored.map(([, flag]) => flag.flag)),
        byKey: new Map(stored),
      };
    }
    return served;
  };

  // Read on every precompute and every priced cart (the free-shipping threshold): compiled once.
  const configurationById = prepareQuery(db, (id: string) =>
    db
      .selectFrom('flag_configurations')
      .select(['created_at', 'environment', 'source'])
      .where('id', '=', id),
  );

  // SQLite: the row is kept until the table is written here or another process commits
  // (db/data-generation.ts), so the fault flags a request evaluates read no row at all.
  const configurations = createGenerationCache<string, ServedConfiguration | undefined>(
    dataGenerationOf(db, ['flag_configurations']),
    1,
  );
  const readConfigurationRow = async () => {
    const [row] = await configurationById(undefined, CONFIGURATION_ID);
    return row
      ? Object.freeze({
          createdAt: Number(row.created_at),
          environment: row.environment,
          source: row.source,
        })
      : undefined;
  };

  return {
    getConfiguration(): Promise<ServedConfiguration | undefined> {
      return configurations.get(CONFIGURATION_ID, readConfigurationRow);
    },

    async listFlags(): Promise<StoredFlag[]> {
      const rows = await db
        .selectFrom('flags')
        .select(['definition', 'revision', 'updated_at'])
        .orderBy('key')
        .execute();
      return rows.map(toStoredFlag);
    },

    async findFlag(key: string): Promise<StoredFlag | undefined> {
      const row = await db
        .selectFrom('flags')
        .select(['definition', 'revision', 'updated_at'])
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? toStoredFlag(row) : undefined;
    },

    /**
     * What precompute serves. createdAt is read before the flags: a change committed in between
     * pairs an old createdAt with new flags, so the provider still sees a new createdAt next time.
     */
    async getServingSnapshot(): Promise<{
      configuration: ServedConfiguration | undefined;
      flags: readonly UfcFlag[];
    }> {
      const configuration = await this.getConfiguration();
      const cached = await servedFlags(configuration);
      const flags = cached?.flags ?? (await this.listFlags()).map((stored) => stored.flag);
      return { configuration, flags };
    },

    /** One served flag, as getServingSnapshot has it (read-only; see `served` above). */
    async findServedFlag(key: string): Promise<StoredFlag | undefined> {
      const cached = await servedFlags(await this.getConfiguration());
      return cached ? cached.byKey.get(key) : this.findFlag(key);
    },

    /**
     * Applies an operator change: `change` gets the current flag (it may throw a typed 4xx) and
     * answers the new flag or null for "nothing to change". Changes are serialised on the
     * configuration row, so two operators never overwrite each other's edit.
     */
    async changeFlag(
      key: string,
      operator: string,
      change: (flag: UfcFlag) => FlagChange | null,
    ): Promise<
      { stored: StoredFlag; configuration: ServedConfiguration; changed: boolean } | undefined
    > {
      return db.transaction().execute(async (trx) => {
        await lockConfiguration(trx);
        const row = await trx
          .selectFrom('flags')
          .select(['definition', 'revision', 'updated_at'])
          .where('key', '=', key)
          .executeTakeFirst();
        if (!row) return undefined;
        const current = toStoredFlag(row);
        const result = change(current.flag);
        if (!result) {
          return { stored: current, configuration: await readConfiguration(trx), changed: false };
        }
        const at = now();
        await trx
          .updateTable('flags')
          .set({
            definition: JSON.stringify(result.flag),
            revision: current.revision + 1,
            updated_at: at,
          })
          .where('key', '=', key)
          .execute();
        const createdAt = await bumpCreatedAt(trx, at);
        await trx
          .insertInto('flag_audit')
          .values({
            flag_key: key,
            action: result.action,
            operator,
            at,
            before: JSON.stringify(result.before),
            after: JSON.stringify(result.after),
            configuration_created_at: createdAt,
          })
          .execute();
        return {
          stored: { flag: result.flag, revision: current.revision + 1, updatedAt: at },
          configuration: await readConfiguration(trx),
          changed: true,
        };
      });
    },

    async listAudit(options: {
      flagKey?: string | undefined;
      limit: number;
    }): Promise<AuditEntry[]> {
      let query = db
        .selectFrom('flag_audit')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(options.limit);
      if (options.flagKey !== undefined) query = query.where('flag_key', '=', options.flagKey);
      const rows = await query.execute();
      return rows.map((row) => ({
        id: Number(row.id),
        flagKey: row.flag_key,
        action: row.action,
        operator: row.operator,
        at: Number(row.at),
        before: row.before === null ? null : (JSON.parse(row.before) as unknown),
        after: row.after === null ? null : (JSON.parse(row.after) as unknown),
        configurationCreatedAt: Number(row.configuration_created_at),
      }));
    },

    /**
     * Makes the stored flags those of the definition files. A flag whose file definition is
     * unchanged since it was last loaded keeps its operator changes (so restarts and replicas
     * do not undo a rollout); a changed definition replaces the stored flag; a flag no longer
     * defined is removed. Every change is audited as `operator` and bumps createdAt.
     */
    async syncDefinitions(definitions: FlagDefinitions, operator = 'startup'): Promise<SyncResult> {
      const source = definitions.sources.join(', ');
      const at = now();
      // Replicas starting together race for the first insert; the loser's insert does nothing.
      // createdAt starts at 0: loading the first flags bumps it to now.
      await db
        .insertInto('flag_configurations')
        .values({
          id: CONFIGURATION_ID,
          created_at: 0,
          environment: definitions.environment,
          source,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();

      return db.transaction().execute(async (trx) => {
        await lockConfiguration(trx);
        const existing = await trx
          .selectFrom('flags')
          .select(['key', 'definition', 'source_hash', 'revision'])
          .execute();
        const byKey = new Map(existing.map((row) => [row.key, row]));
        const result: SyncResult = { added: [], updated: [], removed: [], createdAt: 0 };
        const audit: {
          flag_key: string;
          action: string;
          before: string | null;
          after: string | null;
        }[] = [];

        for (const flag of definitions.flags) {
          const definition = JSON.stringify(flag);
          const hash = sourceHash(definition);
          const stored = byKey.get(flag.key);
          if (stored?.source_hash === hash) continue;
          if (stored) {
            await trx
              .updateTable('flags')
              .set({ definition, source_hash: hash, revision: stored.revision + 1, updated_at: at })
              .where('key', '=', flag.key)
              .execute();
            result.updated.push(flag.key);
          } else {
            await trx
              .insertInto('flags')
              .values({ key: flag.key, definition, source_hash: hash, revision: 1, updated_at: at })
              .execute();
            result.added.push(flag.key);
          }
          audit.push({
            flag_key: flag.key,
            action: 'load',
            before: stored?.definition ?? null,
            after: definition,
          });
        }
        const defined = new Set(definitions.flags.map((flag) => flag.key));
        for (const row of existing) {
          if (defined.has(row.key)) continue;
          await trx.deleteFrom('flags').where('key', '=', row.key).execute();
          result.removed.push(row.key);
          audit.push({ flag_key: row.key, action: 'remove', before: row.definition, after: null });
        }

        await trx
          .updateTable('flag_configurations')
          .set({ environment: definitions.environment, source })
          .where('id', '=', CONFIGURATION_ID)
          .execute();
        result.createdAt =
          audit.length > 0
            ? await bumpCreatedAt(trx, at)
            : (await readConfiguration(trx)).createdAt;
        if (audit.length > 0) {
          await trx
            .insertInto('flag_audit')
            .values(
              audit.map((entry) => ({
                ...entry,
                operator,
                at,
                configuration_created_at: result.createdAt,
              })),
            )
            .execute();
        }
        return result;
      });
    },
  };
}

/** Takes the configuration row's write lock (PostgreSQL row lock, SQLite write lock) until commit. */
async function lockConfiguration(trx: Transaction<Database>): Promise<void> {
  await trx
    .updateTable('flag_configurations')
    .set((eb) => ({ source: eb.ref('source') }))
    .where('id', '=', CONFIGURATION_ID)
    .execute();
}

/** Moves createdAt to now, or one ms past its value if that is not earlier, so it always changes. */
async function bumpCreatedAt(trx: Transaction<Database>, at: number): Promise<number> {
  const row = await trx
    .updateTable('flag_configurations')
    .set({
      created_at: sql<number>`case when created_at >= ${at} then created_at + 1 else ${at} end`,
    })
    .where('id', '=', CONFIGURATION_ID)
    .returning('created_at')
    .executeTakeFirst();
  return Number(row?.created_at ?? at);
}

async function readConfiguration(trx: Transaction<Database>): Promise<ServedConfiguration> {
  const row = await trx
    .selectFrom('flag_configurations')
    .select(['created_at', 'environment', 'source'])
    .where('id', '=', CONFIGURATION_ID)
    .executeTakeFirst();
  return {
    createdAt: Number(row?.created_at ?? 0),
    environment: row?.environment ?? 'default',
    source: row?.source ?? '',
  };
}

function toStoredFlag(row: {
  definition: string;
  revision: number;
  updated_at: number | string;
}): StoredFlag {
  return {
    flag: JSON.parse(row.definition) as UfcFlag,
    revision: Number(row.revision),
    updatedAt: Number(row.updated_at),
  };
}

function sourceHash(definition: string): string {
  return createHash('sha256').update(definition).digest('hex');
}
