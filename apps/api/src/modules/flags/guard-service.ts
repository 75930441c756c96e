import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, FlagGuardTable } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import {
  GUARD_CHECK_EVERY_DEFAULT_MS,
  GUARD_METRIC_FIELDS,
  type GuardBody,
  type GuardCheck,
  type GuardDefinition,
  type GuardMarkerAction,
  type GuardState,
  type GuardStatus,
} from '@showroom/contracts/guards';
import type { NewMarker } from '../scenarios/repository.js';
import { decideGuard, variantMetric, type GuardDecision } from './guard-decision.js';
import { readVariantSamples, rumVariantTexts } from './guard-metrics.js';
import { allocationRolloutPercentage, setAllocationRollout } from './operations.js';
import type { FlagsRepository } from './repository.js';

/**
 * Guarded rollouts (docs/decisions/019-guarded-rollouts.md): the guards' storage, the check
 * that computes each guard's metric per variant and decides, and the actions it takes through
 * the flag operations (operations.ts), so every rollout change is audited as a 'flag' marker
 * and the guard adds a 'guard' marker with the numbers.
 */

/** Who the flag audit and the markers name for the checker's changes. */
export const GUARD_OPERATOR = 'guard';

export interface GuardServiceOptions {
  db: Kysely<Database>;
  flags: FlagsRepository;
  addMarker: (marker: NewMarker) => Promise<unknown>;
  now: () => number;
}

/** What one check of one guard did. */
export interface GuardCheckOutcome {
  flag: string;
  decision: GuardDecision['kind'];
  /** False when another replica changed the guard first: this one did nothing. */
  acted: boolean;
  check: GuardCheck;
}

export type GuardService = ReturnType<typeof createGuardService>;

const num = (value: number | string | null): number | null =>
  value === null ? null : Number(value);

function toState(row: Selectable<FlagGuardTable>): GuardState {
  return {
    flag: row.flag_key,
    definition: JSON.parse(row.definition) as GuardDefinition,
    status: row.status as GuardStatus,
    currentStep: row.step_index,
    percentage: row.percentage === null ? null : Number(row.percentage),
    stepStartedAt: Number(row.step_started_at),
    lastCheck: row.last_check === null ? null : (JSON.parse(row.last_check) as GuardCheck),
    trippedAt: num(row.tripped_at),
    createdAt: Number(row.created_at),
    createdBy: row.created_by,
  };
}

export function createGuardService({ db, flags, addMarker, now }: GuardServiceOptions) {
  const marker = (
    flag: string,
    action: GuardMarkerAction,
    at: number,
    before: unknown,
    after: unknown,
  ) =>
    addMarker({
      kind: 'guard',
      subject: flag,
      action,
      operator: GUARD_OPERATOR,
      at,
      before,
      after,
      flags: [flag],
    });

  const setRollout = async (definition: GuardDefinition, percentage: number) => {
    await flags.changeFlag(definition.flag, GUARD_OPERATOR, (flag) =>
      setAllocationRollout(flag, definition.allocation, percentage),
    );
  };

  const readRow = (flag: string) =>
    db.selectFrom('flag_guards').selectAll().where('flag_key', '=', flag).executeTakeFirst();

  /**
   * The single actor (docs/architecture.md "Scaling"): a change applies only to the version it
   * was decided on; the replica whose update counted a row is the one that acts.
   */
  const claim = async (
    flag: string,
    version: number,
    set: Omit<Updateable<FlagGuardTable>, 'flag_key' | 'version'>,
  ): Promise<boolean> => {
    const result = await db
      .updateTable('flag_guards')
      .set({ ...set, version: version + 1 })
      .where('flag_key', '=', flag)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  };

  /** Checks a guard against the definitions of its flag; 4xx errors name the field. */
  const validate = async (key: string, body: GuardBody): Promise<GuardDefinition> => {
    const stored = await flags.findFlag(key);
    if (!stored) throw notFound(`Flag "${key}" not found`);
    const { flag } = stored;
    const allocation = flag.allocations.find((a) => a.key === body.allocation);
    if (!allocation) {
      throw badRequest('allocation', `Flag "${key}" has no allocation "${body.allocation}"`);
    }
    if (allocation.splits.length === 0) {
      throw badRequest('allocation', `Allocation "${body.allocation}" has no split to roll out`);
    }
    for (const field of ['control', 'treatment'] as const) {
      if (!flag.variations[body[field]]) {
        throw badRequest(field, `${field} must be a variation of "${key}"`);
      }
    }
    // RUM holds a variant as its key or its value: the two sides must not share a text.
    const controlTexts = rumVariantTexts(flag, body.control) ?? [];
    if (rumVariantTexts(flag, body.treatment)?.some((text) => controlTexts.includes(text))) {
      throw badRequest('treatment', 'treatment must differ from control');
    }
    if (!allocation.splits.some((split) => split.variationKey === body.treatment)) {
      throw badRequest('treatment', `Allocation "${body.allocation}" does not serve treatment`);
    }
    // The same list tells the /flags page's guard form which metric fields to ask for.
    for (const field of GUARD_METRIC_FIELDS[body.metric.kind].required) {
      if (body.metric[field] === undefined) {
        throw badRequest(`metric.${field}`, `metric.${field} is required for ${body.metric.kind}`);
      }
    }
    if (body.steps && body.steps.some((step, i) => i > 0 && step <= (body.steps?.[i - 1] ?? 0))) {
      throw badRequest('steps', 'steps must rise strictly');
    }
    return {
      ...body,
      flag: key,
      checkEveryMs: body.checkEveryMs ?? GUARD_CHECK_EVERY_DEFAULT_MS,
    };
  };

  const checkOne = async (row: Selectable<FlagGuardTable>): Promise<GuardCheckOutcome | null> => {
    const state = toState(row);
    const { definition } = state;
    const stored = await flags.findFlag(definition.flag);
    if (!stored) return null;
    const controlText = rumVariantTexts(stored.flag, definition.control);
    const treatmentText = rumVariantTexts(stored.flag, definition.treatment);
    if (controlText === undefined || treatmentText === undefined) return null;
    const at = now();
    const since = state.stepStartedAt;
    const samples = await readVariantSamples(db, {
      flag: definition.flag,
      metric: definition.metric,
      control: controlText,
      treatment: treatmentText,
      since,
    });
    const check: GuardCheck = {
      at,
      since,
      control: variantMetric(definition.metric.kind, samples.control),
      treatment: variantMetric(definition.metric.kind, samples.treatment),
      margin: definition.margin,
    };
    const decision = decideGuard(
      definition,
      { status: state.status, stepIndex: state.currentStep, stepStartedAt: state.stepStartedAt },
      check.control,
      check.treatment,
      at,
    );
    const numbers = { metric: definition.metric, ...check };
    const base = { last_check: JSON.stringify(check), last_check_at: at };
    const outcome = (acted: boolean): GuardCheckOutcome => ({
      flag: definition.flag,
      decision: decision.kind,
      acted,
      check,
    });
    const allocationPercentage = () => {
      const allocation = stored.flag.allocations.find((a) => a.key === definition.allocation);
      return allocation ? allocationRolloutPercentage(allocation) : null;
    };

    switch (decision.kind) {
      case 'none':
        return outcome(await claim(definition.flag, row.version, base));
      case 'trip': {
        const status: GuardStatus = definition.action === 'rollback' ? 'rolled-back' : 'held';
        const percentage = definition.action === 'rollback' ? 0 : allocationPercentage();
        // 'tripped' until the action is done: a replica that dies in between leaves it visible.
        if (
          !(await claim(definition.flag, row.version, {
            ...base,
            status: 'tripped',
            tripped_at: at,
            percentage,
          }))
        ) {
          return outcome(false);
        }
        const before = { percentage: allocationPercentage(), status: state.status };
        await marker(definition.flag, 'tripped', at, before, numbers);
        if (definition.action === 'rollback') {
          await setRollout(definition, 0);
          await marker(definition.flag, 'rolled-back', at, before, { percentage: 0, ...numbers });
        } else {
          await marker(definition.flag, 'held', at, before, { percentage, ...numbers });
        }
        // This replica holds the guard (version + 1); a guard replaced meanwhile stays replaced.
        await claim(definition.flag, row.version + 1, { status });
        return outcome(true);
      }
      case 'advance': {
        const claimed = await claim(definition.flag, row.version, {
          ...base,
          step_index: decision.step,
          step_started_at: at,
          percentage: decision.percentage,
          ...(decision.completes ? { status: 'completed' } : {}),
        });
        if (!claimed) return outcome(false);
        await setRollout(definition, decision.percentage);
        await marker(
          definition.flag,
          'step',
          at,
          { percentage: state.percentage, step: state.currentStep },
          { percentage: decision.percentage, step: decision.step, ...numbers },
        );
        if (decision.completes) {
          await marker(
            definition.flag,
            'completed',
            at,
            { status: state.status },
            { percentage: decision.percentage, ...numbers },
          );
        }
        return outcome(true);
      }
      case 'complete': {
        if (!(await claim(definition.flag, row.version, { ...base, status: 'completed' }))) {
          return outcome(false);
        }
        await marker(
          definition.flag,
          'completed',
          at,
          { status: state.status },
          { percentage: state.percentage, ...numbers },
        );
        return outcome(true);
      }
    }
  };

  return {
    async list(): Promise<GuardState[]> {
      const rows = await db.selectFrom('flag_guards').selectAll().orderBy('flag_key').execute();
      return rows.map(toState);
    },

    async get(flag: string): Promise<GuardState | undefined> {
      const row = await readRow(flag);
      return row ? toState(row) : undefined;
    },

    /**
     * Creates or replaces a flag's guard, watching from now. With steps, the allocation's
     * rollout is set to the first step at once (a 'step' marker).
     */
    async put(key: string, body: GuardBody, operator: string): Promise<GuardState> {
      const definition = await validate(key, body);
      const at = now();
      const first = definition.steps?.[0] ?? null;
      const previous = await readRow(key);
      const values = {
        definition: JSON.stringify(definition),
        status: 'watching',
        step_index: 0,
        step_started_at: at,
        percentage: first,
        last_check: null,
        last_check_at: null,
        tripped_at: null,
        // A replaced guard's version moves on, so a check decided on the old one cannot apply.
        version: (previous?.version ?? 0) + 1,
        created_at: at,
        created_by: operator,
      };
      await db
        .insertInto('flag_guards')
        .values({ flag_key: key, ...values })
        .onConflict((oc) => oc.column('flag_key').doUpdateSet(values))
        .execute();
      if (first !== null) {
        const stored = await flags.findFlag(key);
        const allocation = stored?.flag.allocations.find((a) => a.key === definition.allocation);
        const before = allocation ? allocationRolloutPercentage(allocation) : null;
        await setRollout(definition, first);
        await marker(key, 'step', at, { percentage: before }, { percentage: first, step: 0 });
      }
      const row = await readRow(key);
      if (!row) throw notFound(`Guard of "${key}" not found`);
      return toState(row);
    },

    async remove(flag: string): Promise<boolean> {
      const result = await db.deleteFrom('flag_guards').where('flag_key', '=', flag).execute();
      return result.some((r) => Number(r.numDeletedRows) > 0);
    },

    /** Checks every watching guard whose last check is `checkEveryMs` old (or that has none). */
    async checkDue(): Promise<GuardCheckOutcome[]> {
      const rows = await db
        .selectFrom('flag_guards')
        .selectAll()
        .where('status', '=', 'watching')
        .orderBy('flag_key')
        .execute();
      const at = now();
      const outcomes: GuardCheckOutcome[] = [];
      for (const row of rows) {
        const definition = JSON.parse(row.definition) as GuardDefinition;
        const last = num(row.last_check_at);
        if (last !== null && at - last < definition.checkEveryMs) continue;
        const outcome = await checkOne(row);
        if (outcome) outcomes.push(outcome);
      }
      return outcomes;
    },

    /** Checks one guard now, due or not (null: no watching guard, or its flag is gone). */
    async check(flag: string): Promise<GuardCheckOutcome | null> {
      const row = await readRow(flag);
      if (!row || row.status !== 'watching') return null;
      return checkOne(row);
    },
  };
}
