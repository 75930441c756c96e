import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import { FAULT_RUM_ERRORS } from '@showroom/contracts/faults';
import type { GuardMetric } from '@showroom/contracts/guards';
import { EMPTY_SAMPLES, type VariantSamples } from './guard-decision.js';
import type { UfcFlag } from './ufc.js';

/**
 * Reads a guard's samples from the stored browser monitoring (migration 004-monitoring,
 * docs/decisions/019-guarded-rollouts.md): a session belongs to the variant its events carried
 * in `feature_flags` (rum_session_flags); its actions, errors and views since the window's start
 * are counted for that variant. Sessions that saw both variants count for neither.
 */

/**
 * The texts RUM may hold for a variation (rum-events.ts keeps `feature_flags` values as text):
 * its key, which the Datadog flag provider and our OFREP hook send (`details.variant`), and its
 * value, which `addFeatureFlagEvaluation(key, value)` callers send (strings as they are, other
 * values as JSON). Undefined when the flag has no such variation.
 */
export function rumVariantTexts(flag: UfcFlag, variationKey: string): string[] | undefined {
  const variation = flag.variations[variationKey];
  if (!variation) return undefined;
  const value =
    typeof variation.value === 'string' ? variation.value : JSON.stringify(variation.value);
  return [...new Set([variationKey, value])];
}

/** The action and error a metric counts: payment-decline-rate is a fixed action-error-rate. */
function actionAndError(metric: GuardMetric): { action?: string; error?: string } {
  if (metric.kind === 'payment-decline-rate') {
    return { action: MONITORING_ACTIONS.placeOrder, error: FAULT_RUM_ERRORS.paymentDeclined };
  }
  return { action: metric.action, error: metric.error };
}

function pathOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return null;
  }
}

export async function readVariantSamples(
  db: Kysely<Database>,
  input: {
    flag: string;
    metric: GuardMetric;
    /** The texts RUM may hold for each side (rumVariantTexts). */
    control: string[];
    treatment: string[];
    since: number;
  },
): Promise<{ control: VariantSamples; treatment: VariantSamples }> {
  const { flag, metric, since } = input;
  const control = 'control';
  const treatment = 'treatment';
  const sideOf = new Map<string, string>([
    ...input.control.map((text) => [text, control] as const),
    ...input.treatment.map((text) => [text, treatment] as const),
  ]);
  const sessionRows = await db
    .selectFrom('rum_session_flags')
    .select(['session_id', 'variant'])
    .where('flag_key', '=', flag)
    .where('variant', 'in', [...sideOf.keys()])
    .where('last_seen', '>=', since)
    .execute();
  const variantOf = new Map<string, string | null>();
  for (const row of sessionRows) {
    const side = sideOf.get(row.variant) ?? null;
    const seen = variantOf.get(row.session_id);
    variantOf.set(row.session_id, seen === undefined || seen === side ? side : null);
  }
  const samples = new Map<string, VariantSamples>([
    [control, { ...EMPTY_SAMPLES, lcpMs: [] }],
    [treatment, { ...EMPTY_SAMPLES, lcpMs: [] }],
  ]);
  const samplesOf = (sessionId: string | null) => {
    if (sessionId === null) return undefined;
    const variant = variantOf.get(sessionId);
    return variant ? samples.get(variant) : undefined;
  };
  for (const variant of variantOf.values()) {
    const entry = variant ? samples.get(variant) : undefined;
    if (entry) entry.sessions += 1;
  }

  // Only sessions of the flag in the window: a subquery, not a list of ids.
  const flagSessions = db
    .selectFrom('rum_session_flags')
    .select('session_id')
    .where('flag_key', '=', flag)
    .where('last_seen', '>=', since);

  if (metric.kind === 'p75-lcp') {
    const views = await db
      .selectFrom('rum_views')
      .select(['session_id', 'url', 'largest_contentful_paint'])
      .where('date', '>=', since)
      .where('largest_contentful_paint', 'is not', null)
      .where('session_id', 'in', flagSessions)
      .execute();
    for (const view of views) {
      if (metric.page !== undefined && pathOf(view.url) !== metric.page) continue;
      const entry = samplesOf(view.session_id);
      // Durations are stored in nanoseconds (migration 004-monitoring).
      if (entry) entry.lcpMs.push(Number(view.largest_contentful_paint) / 1e6);
    }
  } else {
    const { action, error } = actionAndError(metric);
    let query = db
      .selectFrom('rum_events')
      .select(['session_id', 'event_type', 'name'])
      .where('date', '>=', since)
      .where('session_id', 'in', flagSessions);
    query =
      metric.kind === 'js-errors-per-session'
        ? query.where('event_type', '=', 'error')
        : query.where((eb) =>
            eb.or([
              eb.and([eb('event_type', '=', 'action'), eb('name', '=', action ?? '')]),
              error === undefined
                ? eb('event_type', '=', 'error')
                : eb.and([eb('event_type', '=', 'error'), eb('name', '=', error)]),
            ]),
          );
    for (const row of await query.execute()) {
      const entry = samplesOf(row.session_id);
      if (!entry) continue;
      if (row.event_type === 'action') entry.actions += 1;
      else entry.failures += 1;
    }
  }
  return {
    control: samples.get(control) ?? EMPTY_SAMPLES,
    treatment: samples.get(treatment) ?? EMPTY_SAMPLES,
  };
}
