import type { FlagCondition } from '@showroom/contracts/flags-admin';
// Constants only: the schema module (guards.ts) would grow the shop's shared typebox chunk.
import {
  GUARD_METRIC_FIELDS,
  GUARD_METRIC_KINDS,
  type GuardMetricField,
  type GuardMetricKind,
} from '@showroom/contracts/guard-constants';

/** Rule operators the /flags page offers (the api accepts every operator its evaluator knows). */

export const RULE_OPERATORS = [
  'ONE_OF',
  'NOT_ONE_OF',
  'MATCHES',
  'NOT_MATCHES',
  'GT',
  'GTE',
  'LT',
  'LTE',
  'IS_NULL',
] as const;

/** Reads the rule editor's text field into the value the operator takes. */
export function parseRuleValue(operator: string, raw: string): unknown {
  const text = raw.trim();
  if (operator === 'ONE_OF' || operator === 'NOT_ONE_OF') {
    return text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  if (['GT', 'GTE', 'LT', 'LTE'].includes(operator)) return text === '' ? Number.NaN : Number(text);
  if (operator === 'IS_NULL') return text.toLowerCase() !== 'false';
  return text;
}

export function describeCondition(condition: FlagCondition): string {
  const value = Array.isArray(condition.value)
    ? condition.value.join(', ')
    : JSON.stringify(condition.value);
  return `${condition.attribute} ${condition.operator.replaceAll('_', ' ').toLowerCase()} ${value}`;
}

/**
 * The guard form's input of each field of `PUT /flags/{key}/guard`
 * (docs/decisions/019-guarded-rollouts.md): times are asked in seconds, the api takes ms. No input
 * is named `action`, which would hide the form element's own `action`.
 */
export const GUARD_INPUTS = {
  allocation: 'allocation',
  'metric.kind': 'metricKind',
  'metric.action': 'metricAction',
  'metric.error': 'metricError',
  'metric.page': 'metricPage',
  control: 'control',
  treatment: 'treatment',
  margin: 'margin',
  minSessions: 'minSessions',
  action: 'onTrip',
  steps: 'steps',
  holdMs: 'holdSeconds',
  checkEveryMs: 'checkEverySeconds',
} as const;
export type GuardInputName = (typeof GUARD_INPUTS)[keyof typeof GUARD_INPUTS];

/**
 * The input that holds the field an api error names: `steps.1` is the steps input, `metric` the
 * metric kind; undefined for a field the form does not ask for.
 */
export function guardInputOfField(field: string | undefined): GuardInputName | undefined {
  if (!field) return undefined;
  const inputs: Record<string, GuardInputName> = GUARD_INPUTS;
  if (field === 'metric') return GUARD_INPUTS['metric.kind'];
  const parts = field.split('.');
  for (let length = parts.length; length > 0; length -= 1) {
    const input = inputs[parts.slice(0, length).join('.')];
    if (input) return input;
  }
  return undefined;
}

/** A guard as the form sends it; the api checks every value and names a refused field. */
export interface GuardFormBody {
  allocation: string;
  metric: { kind: string; action?: string; error?: string; page?: string };
  control: string;
  treatment: string;
  margin: number;
  minSessions: number;
  action: string;
  steps?: number[];
  holdMs: number;
  checkEveryMs?: number;
}

/** The metric fields a kind reads, required first; none for a kind the contract does not know. */
export function metricFieldsOf(kind: string): readonly GuardMetricField[] {
  if (!(GUARD_METRIC_KINDS as readonly string[]).includes(kind)) return [];
  const fields = GUARD_METRIC_FIELDS[kind as GuardMetricKind];
  return [...fields.required, ...fields.optional];
}

/**
 * Reads the guard form into the body of `PUT /flags/{key}/guard`. A number that does not read
 * stays NaN (sent as null), so the api refuses it and names the field; empty steps and check
 * interval are left out (no stepping, the api's default interval). Only the metric fields of
 * the chosen kind are sent.
 */
export function guardBodyOfForm(form: FormData): GuardFormBody {
  const text = (name: GuardInputName) => String(form.get(name) ?? '').trim();
  const number = (name: GuardInputName) => (text(name) === '' ? Number.NaN : Number(text(name)));
  const milliseconds = (name: GuardInputName) => {
    const seconds = number(name);
    return Number.isFinite(seconds) ? Math.round(seconds * 1000) : seconds;
  };
  const kind = text(GUARD_INPUTS['metric.kind']);
  const metric: GuardFormBody['metric'] = { kind };
  for (const field of metricFieldsOf(kind)) {
    const value = text(GUARD_INPUTS[`metric.${field}`]);
    if (value !== '') metric[field] = value;
  }
  const steps = text(GUARD_INPUTS.steps);
  return {
    allocation: text(GUARD_INPUTS.allocation),
    metric,
    control: text(GUARD_INPUTS.control),
    treatment: text(GUARD_INPUTS.treatment),
    margin: number(GUARD_INPUTS.margin),
    minSessions: number(GUARD_INPUTS.minSessions),
    action: text(GUARD_INPUTS.action),
    ...(steps === '' ? {} : { steps: parseSteps(steps) }),
    holdMs: milliseconds(GUARD_INPUTS.holdMs),
    ...(text(GUARD_INPUTS.checkEveryMs) === ''
      ? {}
      : { checkEveryMs: milliseconds(GUARD_INPUTS.checkEveryMs) }),
  };
}

/** "5, 25, 50, 100" (commas or spaces) → [5, 25, 50, 100]; a word stays NaN for the api to refuse. */
export function parseSteps(text: string): number[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((step) => Number(step));
}

/** Steps as the form shows them: [5, 25, 50, 100] → "5, 25, 50, 100". */
export function formatSteps(steps: readonly number[] | undefined): string {
  return steps?.join(', ') ?? '';
}
