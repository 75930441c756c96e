import type { FlagCondition } from '@showroom/contracts/flags-admin';

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
